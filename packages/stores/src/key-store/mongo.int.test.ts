import { describe, it } from 'vitest';
import { scratchMongo } from '@eventide/testing/scratch-mongo.ts';
import { keyStoreContract } from './contract.ts';
import { openMongoKeyStore } from './mongo.ts';

const url = process.env.MONGO_URL;

if (url) {
  keyStoreContract('MongoDB', scratchMongo(url, 'keys', openMongoKeyStore));
} else {
  console.warn('SKIPPED: KeyStore contract on MongoDB: set MONGO_URL (e.g. mongodb://localhost:27017/eventide) to run it');
  describe('KeyStore contract: MongoDB', () => {
    it.skip('skipped: MONGO_URL is not set', () => {});
  });
}
