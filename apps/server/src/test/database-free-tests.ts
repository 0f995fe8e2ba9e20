/**
 * Server test files that use no database: parsers, crypto, payment providers' fakes, storage
 * drivers, pure rules. `npm test` runs them; `npm run test:pg` (TEST_DATABASE=postgres) leaves
 * them out, where they would only run a second time to the same effect (vitest.config.ts).
 * `database-free-tests.test.ts` keeps the list true: a file that starts using a database fails it.
 */
export const DATABASE_FREE_TESTS = [
  'src/automation/automation-texts.test.ts',
  'src/automation/business-hours.test.ts',
  'src/cli/import-whaticket/session.test.ts',
  'src/cli/media-to-s3/move-media.test.ts',
  'src/modules/auth/password-hash.test.ts',
  'src/modules/auth/tokens.test.ts',
  'src/modules/messages/message-preview.test.ts',
  'src/modules/sla/business-time.test.ts',
  'src/modules/two-factor/totp.test.ts',
  'src/modules/users/users.policy.test.ts',
  'src/platform/crypto/secret-box.test.ts',
  'src/platform/db/search.test.ts',
  'src/platform/http/connections.test.ts',
  'src/platform/http/outbound.test.ts',
  'src/platform/payments/asaas.provider.test.ts',
  'src/platform/payments/brcode.test.ts',
  'src/platform/payments/efi-pix.provider.test.ts',
  'src/platform/push/web-push.test.ts',
  'src/platform/realtime/socket-server.test.ts',
  'src/platform/realtime/write-pacer.test.ts',
  'src/platform/spreadsheet/index.test.ts',
  'src/platform/spreadsheet/xls.test.ts',
  'src/platform/storage/media-storage.test.ts',
  'src/platform/storage/media-store.contract.test.ts',
  'src/topology/deploy-files.test.ts',
];
