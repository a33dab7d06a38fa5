/// <reference lib="dom" />
// Webhooks, for admins (docs/webhooks.md): the endpoints with their state, a form to register one
// (its secret shown once), and each endpoint's page: enable it again or pause it, rotate its
// secret, remove it, and its deliveries with their outcome, each one redelivered with a click.
import { useState } from 'preact/hooks';
import { Link, useLocation } from 'wouter-preact';
import type { Webhook, WebhookDelivery } from '@eventide/client/api-client.ts';
import { EVENT_NAMES } from '@eventide/kernel/events/names.ts';
import { api } from '../api.ts';
import { Field, Form, useForm } from '../form.tsx';
import { Shown, useLoad } from '../load.tsx';
import { Loading, ProblemMessage, useSubmit } from '../parts.tsx';
import { type Column, Table } from '../table.tsx';
import { isAdmin, useSession } from '../session.tsx';

const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '');

function State({ webhook }: { webhook: Webhook }) {
  if (webhook.enabled) return <span class="ok">Enabled</span>;
  return (
    <span class="warn">
      Disabled{webhook.disabledReason ? `: ${webhook.disabledReason}` : ''}
      {webhook.disabledAt ? ` (${when(webhook.disabledAt)})` : ''}
    </span>
  );
}

/** The secret, shown once: the receiver needs it, and it is never shown again. */
function SecretOnce({ secret }: { secret: string }) {
  return (
    <div class="notice" role="status">
      <p>
        <strong>Copy this signing secret now</strong>: it is not shown again. The receiver verifies each delivery with it
        (docs/webhooks.md#receiving).
      </p>
      <code>{secret}</code>
    </div>
  );
}

function Register({ onDone }: { onDone: () => void }) {
  const [events, setEvents] = useState<string[]>(['order:created', 'order:updated']);
  const [secret, setSecret] = useState<string>();
  const form = useForm({ url: '', description: '' }, async (values) => {
    const created = await api.webhooks.create({ url: values.url, description: values.description, events });
    setSecret(created.secret);
    form.reset();
    onDone();
  });
  const toggle = (name: string, on: boolean) => setEvents((before) => (on ? [...before, name] : before.filter((e) => e !== name)));
  return (
    <>
      {secret && <SecretOnce secret={secret} />}
      <Form form={{ ...form, names: [...form.names, 'events'] }} submit="Register" sending="Registering…" label="Register an endpoint">
        <Field label="URL (https://…)" {...form.field('url')} required />
        <fieldset>
          <legend>Events</legend>
          {EVENT_NAMES.map((name) => (
            <label key={name} class="choice">
              <input type="checkbox" checked={events.includes(name)} onChange={(e) => toggle(name, e.currentTarget.checked)} /> {name}
            </label>
          ))}
          {form.problem?.fieldError('events') && <p class="field-error">{form.problem.fieldError('events')}</p>}
        </fieldset>
        <Field label="Description" {...form.field('description')} />
      </Form>
    </>
  );
}

const ENDPOINT_COLUMNS: Column<Webhook>[] = [
  { header: 'Endpoint', namesRow: true, cell: (w) => <Link href={`/webhooks/${w.webhookId}`}>{w.url}</Link> },
  { header: 'Events', cell: (w) => w.events.join(', ') },
  { header: 'State', cell: (w) => <State webhook={w} /> },
  { header: 'Waiting', cell: (w) => w.pending, class: (w) => (w.pending > 0 && !w.enabled ? 'warn' : undefined) },
];

export function WebhooksPage() {
  const { session } = useSession();
  const [changed, setChanged] = useState(0);
  const webhooks = useLoad(() => (isAdmin(session) ? api.webhooks.list() : undefined), [session?.userId, changed]);
  if (session === undefined) return <Loading />;
  if (!isAdmin(session)) return <p>This page is for administrators.</p>;
  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">Webhooks</h1>
      <p>Each event chosen is sent to the endpoint, signed (Standard Webhooks), in order for each entity, and retried for a day.</p>
      <Shown loaded={webhooks} loading="Loading endpoints…">
        {(shown) =>
          shown.items.length === 0 ? (
            <p>No endpoint is registered.</p>
          ) : (
            <>
              {shown.items.some((w) => !w.enabled) && (
                <p class="problem" role="alert">
                  An endpoint is disabled: its events wait until it is enabled again.
                </p>
              )}
              <Table label="Webhook endpoints" rows={shown.items} columns={ENDPOINT_COLUMNS} rowKey={(w) => w.webhookId} />
              <p>
                {shown.items.length} of at most {shown.max}.
              </p>
            </>
          )
        }
      </Shown>
      <h2>Register an endpoint</h2>
      <Register onDone={() => setChanged((n) => n + 1)} />
    </section>
  );
}

function Deliveries({ id, changed }: { id: string; changed: unknown }) {
  const deliveries = useLoad(() => api.webhooks.deliveries(id, { limit: 25 }), [id, changed]);
  const [noted, setNoted] = useState<string>();
  const redelivering = useSubmit(async (delivery?: WebhookDelivery) => {
    await api.webhooks.redeliver(id, delivery!.deliveryId);
    setNoted(`Delivery of ${delivery!.eventType} queued again: it is sent within a second or two.`);
    deliveries.reload();
  });
  const columns: Column<WebhookDelivery>[] = [
    { header: 'Event', namesRow: true, cell: (d) => `${d.eventType} of ${d.entity} (position ${d.position})` },
    { header: 'Status', cell: (d) => d.status, class: (d) => (d.status === 'failed' ? 'warn' : undefined) },
    { header: 'Attempts', cell: (d) => d.attempts },
    {
      header: 'Last answer',
      cell: (d) =>
        (d.lastError ?? (d.lastStatus ? `answered ${d.lastStatus}` : '')) + (d.lastAttemptAt ? `, ${when(d.lastAttemptAt)}` : ''),
    },
    { header: 'Next', cell: (d) => when(d.nextAttemptAt) },
    {
      header: 'Action',
      cell: (d) => (
        <button type="button" class="secondary" disabled={redelivering.busy} onClick={(e) => void redelivering.submit(e, d)}>
          Redeliver
        </button>
      ),
    },
  ];
  return (
    <Shown loaded={deliveries} loading="Loading deliveries…">
      {(page) =>
        page.items.length === 0 ? (
          <p>Nothing was sent yet: it receives the events that happen from its registration on.</p>
        ) : (
          <>
            {noted && (
              <p role="status" class="ok">
                {noted}
              </p>
            )}
            <ProblemMessage problem={redelivering.problem} />
            <Table label="Deliveries" rows={page.items} columns={columns} rowKey={(d) => d.deliveryId} />
            {page.nextCursor && <p>The newest 25 are shown.</p>}
          </>
        )
      }
    </Shown>
  );
}

export function WebhookPage({ id }: { id: string }) {
  const { session } = useSession();
  const [, navigate] = useLocation();
  const [changed, setChanged] = useState(0);
  const [secret, setSecret] = useState<string>();
  const webhook = useLoad(() => (isAdmin(session) ? api.webhooks.get(id) : undefined), [id, session?.userId, changed]);
  const acting = useSubmit(async (action?: 'enable' | 'pause' | 'rotate' | 'remove') => {
    if (action === 'remove') {
      await api.webhooks.remove(id);
      navigate('/webhooks');
      return;
    }
    if (action === 'rotate') setSecret((await api.webhooks.rotateSecret(id)).secret);
    else await api.webhooks.change(id, { enabled: action === 'enable' });
    setChanged((n) => n + 1);
  });
  if (session === undefined) return <Loading />;
  if (!isAdmin(session)) return <p>This page is for administrators.</p>;
  const button = (action: 'enable' | 'pause' | 'rotate' | 'remove', words: string) => (
    <button type="button" class="secondary" disabled={acting.busy} onClick={(e) => void acting.submit(e, action)}>
      {words}
    </button>
  );
  return (
    <section aria-labelledby="webhook-title">
      <p>
        <Link href="/webhooks">All webhooks</Link>
      </p>
      <Shown loaded={webhook} loading="Loading the endpoint…">
        {(w) => (
          <>
            <h1 id="webhook-title">{w.url}</h1>
            {w.description && <p>{w.description}</p>}
            <dl>
              <dt>State</dt>
              <dd>
                <State webhook={w} />
              </dd>
              <dt>Events</dt>
              <dd>{w.events.join(', ')}</dd>
              <dt>Waiting</dt>
              <dd>
                {w.pending} deliveries{w.dropped > 0 ? `; ${w.dropped} events not queued while its queue was full` : ''}
              </dd>
              {w.previousSecretUntil && (
                <>
                  <dt>Previous secret</dt>
                  <dd>still signs until {when(w.previousSecretUntil)}</dd>
                </>
              )}
            </dl>
            {secret && <SecretOnce secret={secret} />}
            <p class="actions">
              {w.enabled ? button('pause', 'Pause') : button('enable', 'Enable again')}
              {button('rotate', 'Rotate the secret')}
              {button('remove', 'Remove')}
            </p>
            <ProblemMessage problem={acting.problem} />
            <h2>Deliveries</h2>
            <Deliveries id={id} changed={changed} />
          </>
        )}
      </Shown>
    </section>
  );
}
