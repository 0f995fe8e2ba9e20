/**
 * Dependency rules (docs/architecture.md "Layers"), checked by `npm run check:deps` in CI.
 * Type-only imports count too (tsPreCompilationDeps), so a type import up a layer or
 * into a cycle fails like a runtime one.
 */
const SERVER = '^apps/server/src/';
const TESTS = '(\\.test\\.ts$|^apps/server/src/test/|^apps/server/src/faults/|^apps/server/src/topology/)';
// Whose imports are below whom: each area may import only the folders listed for it.
const layer = (name, from, forbidden, comment) => ({
  name,
  comment,
  severity: 'error',
  from: { path: `${SERVER}${from}`, pathNot: TESTS },
  to: { path: `${SERVER}(${forbidden})` },
});

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'No import cycle, counting type-only imports (server, web and shared).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'composition-root-only',
      comment: 'Only main.ts and tests import the composition root (app.ts, app-routes.ts, app-services.ts); app.ts imports the other two.',
      severity: 'error',
      from: { pathNot: `(${SERVER}(main|app|app-routes|app-services)\\.ts$|${TESTS}|^bench/)` },
      to: { path: `${SERVER}(app|app-routes|app-services)\\.ts$` },
    },
    layer('platform-imports-nothing-above', 'platform/', 'modules/|inbound/|channels/|automation/|outbound/', 'platform/ is infrastructure: it knows no domain module or area.'),
    layer('modules-import-only-platform', 'modules/', 'inbound/|channels/|automation/|outbound/', 'Domain modules import platform/ and each other, nothing above; what they need from above is a port they declare.'),
    layer('inbound-imports-no-area', 'inbound/', 'channels/|automation/|outbound/', 'The pipeline declares its reactions as ports (inbound-reactions.ts); channels feed it, automation and outbound implement them.'),
    layer('channels-import-no-reaction', 'channels/', 'automation/|outbound/', 'Channel providers feed inbound/ and implement modules/connections ports.'),
    layer('automation-imports-no-sibling', 'automation/', 'channels/|outbound/', 'The automation implements inbound ports and answers domain events.'),
    layer('outbound-imports-no-sibling', 'outbound/', 'channels/|automation/|inbound/', 'The outbound engine sends through the ChannelGateway port and implements inbound ports.'),
    {
      name: 'web-never-imports-server',
      severity: 'error',
      from: { path: '^apps/web/' },
      to: { path: '^apps/server/' },
    },
    {
      name: 'shared-imports-no-app',
      severity: 'error',
      from: { path: '^packages/shared/' },
      to: { path: '^apps/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(node_modules|/dist|\\.d\\.ts$)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.mjs'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
