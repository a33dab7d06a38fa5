// Key store in MongoDB, for deployments on the real engines: a collection of one document per
// subject, and one holding the blind-index secret. Fit for production; every process shares it.
//
// Forgetting overwrites the key in its document. What WiredTiger keeps of the old version (its
// journal, pages not yet reused, backups) is beyond an application's reach: docs/privacy.md says
// what an operator must do about it.
import { randomBytes } from 'node:crypto';
import { blindIndexUnder } from './blind-index.ts';
import { Binary, type Collection, type MongoClient } from 'mongodb';
import { KEY_BYTES, SubjectForgottenError, type KeyState, type KeyStore } from './port.ts';

interface KeyDocument {
  _id: string;
  key: Binary | null;
  forgottenAt: Date | null;
}

/** Notes share the secrets' collection, each under a name of its own. */
const noteName = (name: string) => `note:${name}`;

interface SecretDocument {
  _id: string;
  value: Binary;
}

const stateOf = (doc: KeyDocument | null): KeyState => {
  if (!doc) return { state: 'unknown' };
  if (doc.forgottenAt) return { state: 'forgotten', forgottenAt: doc.forgottenAt.toISOString() };
  return { state: 'active', key: Buffer.from(doc.key!.buffer) };
};

export async function openMongoKeyStore(client: MongoClient, clock: () => Date = () => new Date()): Promise<KeyStore> {
  const keys: Collection<KeyDocument> = client.db().collection('subject_keys');
  const secrets: Collection<SecretDocument> = client.db().collection('key_store_secrets');
  const secret = await secrets.findOneAndUpdate(
    { _id: 'blind-index' },
    { $setOnInsert: { value: new Binary(randomBytes(KEY_BYTES)) } },
    { upsert: true, returnDocument: 'after' },
  );
  const blindIndex = blindIndexUnder(Buffer.from(secret!.value.buffer));

  return {
    async keyFor(subject) {
      // An upsert that sets only on insert: of racing first uses, one makes the key and all read it.
      const doc = await keys.findOneAndUpdate(
        { _id: subject },
        { $setOnInsert: { key: new Binary(randomBytes(KEY_BYTES)), forgottenAt: null } },
        { upsert: true, returnDocument: 'after' },
      );
      const state = stateOf(doc);
      if (state.state !== 'active') throw new SubjectForgottenError(subject);
      return state.key;
    },

    async lookup(subjects) {
      const docs = await keys.find({ _id: { $in: [...subjects] } }).toArray();
      const found = new Map(docs.map((doc) => [doc._id, doc]));
      return new Map(subjects.map((subject) => [subject, stateOf(found.get(subject) ?? null)]));
    },

    async forget(subject) {
      for (;;) {
        // Only a key not forgotten yet changes, so the first forget's time stays.
        const active = await keys.findOneAndUpdate(
          { _id: subject, forgottenAt: null },
          { $set: { key: null, forgottenAt: clock() } },
          { returnDocument: 'before' },
        );
        if (active) return 'forgotten';
        const existing = await keys.findOneAndUpdate(
          { _id: subject },
          { $setOnInsert: { key: null, forgottenAt: clock() } },
          { upsert: true, returnDocument: 'before' },
        );
        if (!existing) return 'unknown';
        if (existing.forgottenAt) return 'already-forgotten';
        // A first use made a key between the two: destroy that one too.
      }
    },

    blindIndex,

    async note(name) {
      const doc = await secrets.findOne({ _id: noteName(name) });
      return doc ? Buffer.from(doc.value.buffer).toString('utf8') : undefined;
    },

    async setNote(name, value) {
      await secrets.updateOne({ _id: noteName(name) }, { $set: { value: new Binary(Buffer.from(value, 'utf8')) } }, { upsert: true });
    },

    async close() {},
  };
}
