// Products, their history, and search: this resource's part of the route table (operations.ts). Carries no schema code, so
// that a browser bundle (the typed client) can import it; the shapes are beside it (shapes.ts).
import { WRITE, READ, type Operation } from '../../operation.ts';

export const PRODUCT_OPERATIONS = {
  // Products and search.
  listProducts: {
    service: 'query',
    method: 'get',
    path: '/products',
    access: 'public',
    tag: 'products',
    summary: 'List products, newest first (offset pages, or cursor pages with after)',
    headers: READ,
  },
  pageProducts: {
    service: 'query',
    method: 'get',
    path: '/api/products',
    access: 'public',
    tag: 'products',
    summary: 'List products, newest first, by cursor',
    headers: READ,
  },
  getProduct: {
    service: 'query',
    method: 'get',
    path: '/products/{id}',
    access: 'public',
    tag: 'products',
    summary: 'Read one product',
    headers: READ,
  },
  productHistory: {
    service: 'query',
    method: 'get',
    path: '/products/{id}/history',
    access: 'admin',
    tag: 'products',
    summary: 'Every change to a product, newest first: when, by whom, which fields (cursor pages; admins)',
    headers: READ,
    // A page of a long stream's events, each upcast and its changes found: tens of milliseconds.
    readCost: 20,
  },
  createProduct: {
    service: 'command',
    method: 'post',
    path: '/products',
    access: 'admin',
    tag: 'products',
    summary: 'Create a product',
    headers: ['Idempotency-Key'],
  },
  changeProduct: {
    service: 'command',
    method: 'patch',
    path: '/products/{id}',
    access: 'admin',
    tag: 'products',
    summary: 'Change some fields of a product',
    headers: WRITE,
  },
  deleteProduct: {
    service: 'command',
    method: 'delete',
    path: '/products/{id}',
    access: 'admin',
    tag: 'products',
    summary: 'Delete a product',
    headers: WRITE,
  },
  search: {
    service: 'query',
    method: 'get',
    path: '/search',
    access: 'public',
    tag: 'products',
    summary: 'Search products by name and description, best match first',
    headers: READ,
    limit: 'search',
  },
} as const satisfies Record<string, Operation>;
