import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EventEmitter } from 'node:events';
import type { Server } from 'node:http';
import { connectionCap, DESCRIPTOR_RESERVE, descriptorLimit, shedUnderPressure } from './connections.ts';
import { ANSWERED_THROUGH } from './passed-on.ts';

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

describe('shedding under pressure a connection passed on whole', () => {
  /** A connection as the shedding sees it: it can be closed, and says so. */
  class FakeSocket extends EventEmitter {
    destroyed = false;
    readonly name: string;
    constructor(name: string) {
      super();
      this.name = name;
    }
    destroy() {
      this.destroyed = true;
      this.emit('close');
    }
  }

  it('treats it as waiting for a request until its first answer comes back, and as idle after each', () => {
    const server = new EventEmitter();
    // A cap of 4 sheds from the third open connection on.
    shedUnderPressure(server as unknown as Server, 4);
    const open = (name: string) => {
      const socket = new FakeSocket(name);
      server.emit('connection', socket);
      return socket;
    };
    const piped = open('piped and answered');
    const slow = open('slow sender');
    server.emit(ANSWERED_THROUGH, piped);
    const unanswered = open('piped, not answered yet');
    // Pressure: the one that waited longest without a request goes first, then the next.
    open('newcomer 1');
    expect([piped, slow, unanswered].filter((s) => s.destroyed).map((s) => s.name)).toEqual(['slow sender']);
    open('newcomer 2');
    expect(unanswered.destroyed).toBe(true);
    expect(piped.destroyed).toBe(false);
  });
});
