// A contract suite's MongoDB target: a database of its own for each run (dropped afterwards), and
// a client of its own for each open, as separate processes sharing the database would have.
import { MongoClient } from 'mongodb';

export function scratchMongo<Store>(url: string, prefix: string, open: (client: MongoClient) => Store | Promise<Store>) {
  return async () => {
    const dbUrl = new URL(url);
    dbUrl.pathname = `/eventide_${prefix}_${crypto.randomUUID().slice(0, 8)}`;
    const clients: MongoClient[] = [];
    return {
      async open() {
        const client = new MongoClient(dbUrl.toString());
        await client.connect();
        clients.push(client);
        return open(client);
      },
      async dispose() {
        await clients[0]?.db().dropDatabase();
        for (const client of clients) await client.close();
      },
    };
  };
}
