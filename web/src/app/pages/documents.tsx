/// <reference lib="dom" />
// A signed-in user's collaborative documents: the list (their own and those shared with them), a
// new one with a title, and the way to one document's page (document-page.tsx), which is loaded
// only when it opens.
import { useEffect, useState } from 'preact/hooks';
import { Link, useLocation } from 'wouter-preact';
import type { DocumentSummary } from '@eventide/client/api-client.ts';
import type { ApiProblem } from '@eventide/client/problem.ts';
import { api, asProblem } from '../api.ts';
import { Field, Lazy, Loading, ProblemMessage, SignInFirst, useSubmit } from '../parts.tsx';
import { useSession } from '../session.tsx';

const when = (iso: string | undefined) => (iso ? new Date(iso).toLocaleString() : '—');

export function DocumentsPage() {
  const { session } = useSession();
  const [, navigate] = useLocation();
  const [documents, setDocuments] = useState<DocumentSummary[]>();
  const [problem, setProblem] = useState<ApiProblem>();
  const [title, setTitle] = useState('');
  useEffect(() => {
    if (!session) return;
    api.documents.list().then(setDocuments, (error) => setProblem(asProblem(error)));
  }, [session?.userId]);
  const creating = useSubmit(async () => {
    const created = await api.documents.create({ title });
    navigate(`/documents/${created.id}`);
  });

  if (session === undefined) return <Loading />;
  if (session === null) return <SignInFirst what="your documents" />;
  return (
    <section aria-labelledby="documents-title">
      <h1 id="documents-title">Your documents</h1>
      <form class="inline" onSubmit={creating.submit} aria-busy={creating.busy}>
        <Field label="Title of a new document" name="title" value={title} onInput={setTitle} problem={creating.problem} required />
        <button type="submit" disabled={creating.busy}>
          {creating.busy ? 'Creating…' : 'Create document'}
        </button>
      </form>
      <ProblemMessage problem={creating.problem} fields={['title']} />
      <ProblemMessage problem={problem} />
      {!documents && !problem && <Loading>Loading your documents…</Loading>}
      {documents?.length === 0 && <p>No documents yet. Give the first one a title above.</p>}
      {documents && documents.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">Owner</th>
              <th scope="col">Last changed</th>
            </tr>
          </thead>
          <tbody>
            {documents.map((doc) => (
              <tr key={doc.id}>
                <td>
                  <Link href={`/documents/${doc.id}`}>{doc.title}</Link>
                  {doc.role === 'viewer' && <span class="tag"> view only</span>}
                </td>
                <td>{doc.role === 'owner' ? 'You' : (doc.owner.name ?? 'A deleted account')}</td>
                <td>{when(doc.modifiedAt ?? doc.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
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
