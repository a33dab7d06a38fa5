-- wrk's requests for POST /users (wrk.ts): each a sign-up with an address no other request of the
-- bench has used, from the tag wrk is given after `--` (one per load) and a count.
local tag = "bench"
local count = 0

function init(args)
  tag = args[1] or tag
end

function request()
  count = count + 1
  local body = string.format('{"name":"Bench","email":"bench-%s-%d@example.com"}', tag, count)
  return wrk.format("POST", "/users", { ["content-type"] = "application/json" }, body)
end
