// Orders, versioned like users, and their history: this resource's part of the route table (operations.ts). Carries no schema code, so
// that a browser bundle (the typed client) can import it; the shapes are beside it (shapes.ts).
import { ALL, PREFIXED, UNVERSIONED, WRITE, READ, type Operation } from '../../operation.ts';

export const ORDER_OPERATIONS = {
  // Orders: versioned like users.
  listOrders: {
    service: 'query',
    method: 'get',
    path: '/orders',
    access: 'signed-in',
    tag: 'orders',
    summary: 'List orders (offset pages): your own, or anyone’s for an admin',
    headers: READ,
    versions: ALL,
  },
  getOrder: {
    service: 'query',
    method: 'get',
    path: '/orders/{id}',
    access: 'owner',
    tag: 'orders',
    summary: 'Read an order',
    headers: READ,
    versions: ALL,
  },
  orderHistory: {
    service: 'query',
    method: 'get',
    path: '/orders/{id}/history',
    access: 'owner',
    tag: 'orders',
    summary: 'Every change to an order, newest first: when, by whom, which fields (cursor pages)',
    headers: READ,
    // A page of a long stream's events, each upcast and its changes found: tens of milliseconds.
    readCost: 20,
  },
  createOrder: {
    service: 'command',
    method: 'post',
    path: '/orders',
    access: 'signed-in',
    tag: 'orders',
    summary: 'Create an order (a draft)',
    headers: ['Idempotency-Key'],
    versions: ALL,
  },
  changeOrder: {
    service: 'command',
    method: 'patch',
    path: '/orders/{id}',
    access: 'owner',
    tag: 'orders',
    summary: 'Change some fields of an order: its lines, or its status by a step of its life cycle',
    headers: WRITE,
    versions: UNVERSIONED,
  },
  replaceOrder: {
    service: 'command',
    method: 'put',
    path: '/orders/{id}',
    access: 'owner',
    tag: 'orders',
    summary: 'Replace an order (every field)',
    headers: WRITE,
    versions: PREFIXED,
  },
  deleteOrder: {
    service: 'command',
    method: 'delete',
    path: '/orders/{id}',
    access: 'owner',
    tag: 'orders',
    summary: 'Delete an order (a draft or a cancelled one)',
    headers: WRITE,
    versions: ALL,
  },
} as const satisfies Record<string, Operation>;
