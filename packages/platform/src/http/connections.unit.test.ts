import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectionCap, DESCRIPTOR_RESERVE, descriptorLimit } from './connections.ts';

describe('the cap on connections in all', () => {
  it('is as configured when the descriptors allow it', () => {
    expect(connectionCap(8000, 65536)).toBe(8000);
    expect(connectionCap(8000, undefined)).toBe(8000);
  });

  it('leaves the reserve to the stores when the descriptors are fewer', () => {
    expect(connectionCap(8000, 1024)).toBe(1024 - DESCRIPTOR_RESERVE);
    expect(connectionCap(8000, 100)).toBe(1);
  });

  it('reads the soft limit on open files as Linux states it', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'limits-')), 'limits');
    writeFileSync(
      file,
      'Limit                     Soft Limit           Hard Limit           Units\nMax open files            1024                 1048576              files\n',
    );
    expect(descriptorLimit(file)).toBe(1024);
    expect(descriptorLimit(join(file, 'missing'))).toBeUndefined();
  });
});
