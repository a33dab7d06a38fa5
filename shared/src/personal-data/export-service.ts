// exportPersonalData (GET /users/{id}/export): a signed-in person downloads everything the system
// holds about them as one JSON document (docs/privacy.md#export); an admin may export anyone, for
// a request made by other means. The mount has checked who asks and spent the export limit; the
// sections come from the services of this process (export.ts).
import type { Service, ServiceFactory } from '../service/compose.ts';

export function personalDataExportService(): ServiceFactory<Service> {
  return async ({ auth: openAuth, personalData }) => {
    // Sessions (and so who may ask) come from the platform's auth.
    await openAuth();
    return {
      api: {
        service: 'export' as const,
        handlers: {
          async exportPersonalData({ ctx, params }) {
            ctx.body = await personalData.exportOf(params.id);
            ctx.set('Content-Disposition', `attachment; filename="personal-data-${params.id}.json"`);
            ctx.set('Cache-Control', 'no-store');
          },
        },
      },
      health: () => ({}),
      close: async () => undefined,
    };
  };
}
