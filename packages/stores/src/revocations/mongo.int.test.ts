import { describe, it } from 'vitest';
import { scratchMongo } from '@eventide/testing/scratch-mongo.ts';
import { revocationFeedContract } from './contract.ts';
import { openMongoRevocations } from './mongo.ts';

const url = process.env.MONGO_URL;

if (url) {
  revocationFeedContract('MongoDB', scratchMongo(url, 'revocations', openMongoRevocations));
} else {
  console.warn(
    'SKIPPED: RevocationFeed contract on MongoDB: set MONGO_URL (a replica set, e.g. mongodb://localhost:27017/eventide?replicaSet=rs0) to run it',
  );
  describe('RevocationFeed contract: MongoDB', () => {
    it.skip('skipped: MONGO_URL is not set', () => {});
  });
}
