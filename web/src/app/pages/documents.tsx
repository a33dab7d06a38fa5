/// <reference lib="dom" />
// A signed-in user's collaborative documents: the list (their own and those shared with them), a
// new one with a title, and the way to one document's page (document-page.tsx), which is loaded
// only when it opens.
import { Link, useLocation } from 'wouter-preact';
import type { DocumentSummary } from '@eventide/client/api-client.ts';
import { api } from '../api.ts';
import { Field, Form, useForm } from '../form.tsx';
import { Shown, useLoad } from '../load.tsx';
import { Lazy, Loading, SignInFirst } from '../parts.tsx';
import { type Column, Table } from '../table.tsx';
import { useSession } from '../session.tsx';

const when = (iso: string | undefined) => (iso ? new Date(iso).toLocaleString() : '—');

const DOCUMENT_COLUMNS: Column<DocumentSummary>[] = [
  {
    header: 'Title',
    cell: (doc) => (
      <>
        <Link href={`/documents/${doc.id}`}>{doc.title}</Link>
        {doc.role === 'viewer' && <span class="tag"> view only</span>}
      </>
    ),
  },
  { header: 'Owner', cell: (doc) => (doc.role === 'owner' ? 'You' : (doc.owner.name ?? 'A deleted account')) },
  { header: 'Last changed', cell: (doc) => when(doc.modifiedAt ?? doc.createdAt) },
];

export function DocumentsPage() {
  const { session } = useSession();
  const [, navigate] = useLocation();
  const documents = useLoad(() => (session ? api.documents.list() : undefined), [session?.userId]);
  const creating = useForm({ title: '' }, async ({ title }) => {
    const created = await api.documents.create({ title });
    navigate(`/documents/${created.id}`);
  });

  if (session === undefined) return <Loading />;
  if (session === null) return <SignInFirst what="your documents" />;
  return (
    <section aria-labelledby="documents-title">
      <h1 id="documents-title">Your documents</h1>
      <Form form={creating} inline submit="Create document" sending="Creating…">
        <Field label="Title of a new document" required {...creating.field('title')} />
      </Form>
      <Shown loaded={documents} loading="Loading your documents…">
        {(shown) =>
          shown.length === 0 ? (
            <p>No documents yet. Give the first one a title above.</p>
          ) : (
            <Table rows={shown} columns={DOCUMENT_COLUMNS} rowKey={(doc) => doc.id} />
          )
        }
      </Shown>
    </section>
  );
}

/** A document's page, fetched the first time one opens (the editor is most of the app's script). */
export function DocumentPage({ id }: { id: string }) {
  return (
    <Lazy load={() => import('./document-page.tsx')} what="editor">
      {(module) => <module.DocumentPage id={id} />}
    </Lazy>
  );
}
