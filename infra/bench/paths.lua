-- wrk's requests for a route loaded with several paths (wrk.ts): GET each of the paths given after
-- `--` in turn, with the headers given to wrk (-H).
local paths = {}
local next_path = 0

function init(args)
  for _, path in ipairs(args) do
    paths[#paths + 1] = path
  end
end

function request()
  next_path = next_path % #paths + 1
  return wrk.format("GET", paths[next_path])
end
