/**
 * Import-graph rules, run by every project's lint target (nx.json targetDefaults):
 * - no file imports itself back through others (every package);
 * - the tickets service's folders and the web app's features form no loop either, so each can be read, moved
 *   or split without dragging the rest along.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'A file reaches itself back through its imports: cut the loop (move the shared piece down, or invert it).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-cycle-tickets',
      severity: 'error',
      comment: "tickets' modules depend one way only: a folder never reaches itself back through another folder.",
      scope: 'folder',
      from: { path: '^services/tickets/src' },
      to: { circular: true },
    },
    {
      name: 'no-feature-cycle-web',
      severity: 'error',
      comment: "The web's features depend one way only: shared widgets live in web/src/components, not inside a feature.",
      scope: 'folder',
      from: { path: '^web/src' },
      to: { circular: true },
    },
    {
      name: 'sessions-runtime-below-connections',
      severity: 'error',
      comment: "whatsapp-sessions' runtime is reached through its façade; it never imports the connections it serves.",
      from: { path: '^services/whatsapp-sessions/src/runtime' },
      to: { path: '^services/whatsapp-sessions/src/connections' },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules'] },
    exclude: { path: ['(^|/)dist/', '(^|/)node_modules/', '\\.d\\.ts$'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    skipAnalysisNotInRules: true,
  },
};
