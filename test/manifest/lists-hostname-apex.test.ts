/**
 * `exclude_exact_hostname` of hostname list items (the API's `hostname.exclude_exact_hostname`,
 * default true: `*.example.com` matches subdomains only; false: the bare domain too). The account
 * manifest carries it on `*.` hostname items, compares it, writes it, exports it, and `zonewall
 * test` honours it offline as the engine's trace does; before, a live `false` was invisible: the
 * plan said "no changes", export dropped it, and offline tests disagreed with the zone.
 */
import { describe, expect, it } from 'vitest';
import { formatIssue, validateAccountManifestText, type DesiredAccount } from '../../src/manifest/index.js';
import { diffLists, exportAccountManifest, renderListsPlan, type LiveAccount } from '../../src/plan/index.js';
import { liveItemOf } from '../../src/plan/index.js';
import { listsOf } from '../../src/policy/lists.js';

const text = [
  'account: acme', 'lists:', '  tenants:', '    kind: hostname', '    items:',
  '      - { value: "*.example.org", exclude_exact_hostname: false }',
  '      - { value: "*.example.net", exclude_exact_hostname: true, comment: default }',
  '      - app.example.com', '',
].join('\n');

function account(source: string): DesiredAccount {
  const r = validateAccountManifestText(source, 'account.yaml');
  expect(r.issues.map(formatIssue)).toEqual([]);
  return r.account!;
}

function live(exampleOrg: boolean | undefined): LiveAccount {
  const org = liveItemOf('hostname', { id: 'i1', hostname: { url_hostname: '*.example.org', ...(exampleOrg === undefined ? {} : { exclude_exact_hostname: exampleOrg }) }, created_on: '', modified_on: '' });
  return {
    id: 'a1', name: 'acme', lists: [{ id: 'l1', name: 'tenants', kind: 'hostname', description: '', items: [
      org,
      liveItemOf('hostname', { id: 'i2', hostname: { url_hostname: '*.example.net', exclude_exact_hostname: true }, comment: 'default', created_on: '', modified_on: '' }),
      liveItemOf('hostname', { id: 'i3', hostname: { url_hostname: 'app.example.com' }, created_on: '', modified_on: '' }),
    ] }],
  };
}

describe('exclude_exact_hostname in the account manifest', () => {
  it('keeps false on a *. item, normalises true (the default) away', () => {
    expect(account(text).lists[0]!.items).toEqual([
      { value: '*.example.org', excludeExact: false },
      { value: '*.example.net', comment: 'default' },
      { value: 'app.example.com' },
    ]);
  });

  it('is refused, at its key, on an item without "*." and on a list of another kind', () => {
    const bad = [
      'account: acme', 'lists:', '  tenants:', '    kind: hostname', '    items:',
      '      - { value: app.example.com, exclude_exact_hostname: false }',
      '  office:', '    kind: ip', '    items:', '      - { value: 192.0.2.1, exclude_exact_hostname: false }', '',
    ].join('\n');
    expect(validateAccountManifestText(bad, 'account.yaml').issues.map(formatIssue)).toEqual([
      'account.yaml:6:35: lists.tenants.items[0].exclude_exact_hostname: exclude_exact_hostname applies to *.-prefixed items of hostname lists only ("app.example.com" has no "*.")',
      'account.yaml:10:29: lists.office.items[0].exclude_exact_hostname: exclude_exact_hostname applies to *.-prefixed items of hostname lists only (this is an ip list)',
    ]);
  });

  it('creates items with the flag; a live list that matches plans nothing', () => {
    const created = diffLists(account(text), { id: 'a1', name: 'acme', lists: [] });
    expect(created.writes.before[1]).toEqual({ op: 'add-items', name: 'tenants', items: [
      { hostname: { url_hostname: '*.example.org', exclude_exact_hostname: false } },
      { hostname: { url_hostname: '*.example.net' }, comment: 'default' },
      { hostname: { url_hostname: 'app.example.com' } },
    ] });
    const same = diffLists(account(text), live(false));
    expect(same.writes).toEqual({ before: [], after: [] });
    expect(same.summary).toMatchObject({ unchanged: 1, hostnameFlagsChanged: 0 });
  });

  it('a live item whose flag differs is one item write (the POST overwrites it), shown as such', () => {
    for (const was of [undefined, true]) {
      const plan = diffLists(account(text), live(was));
      expect(plan.writes.before).toEqual([{ op: 'add-items', name: 'tenants', id: 'l1', items: [{ hostname: { url_hostname: '*.example.org', exclude_exact_hostname: false } }] }]);
      expect(plan.summary).toMatchObject({ update: 1, hostnameFlagsChanged: 1, commentsChanged: 0 });
      const shown = renderListsPlan(plan);
      expect(shown).toContain('~ list tenants (hostname): 1 exclude_exact_hostname, 3 -> 3 items');
      expect(shown).toContain('~ *.example.org exclude_exact_hostname: true -> false');
      expect(shown).toContain('1 exclude_exact_hostname to change.');
    }
    // And back: the manifest's default against a live false sends the item without the flag.
    const back = diffLists(account(text.replace(', exclude_exact_hostname: false', '')), live(false));
    expect(back.writes.before).toEqual([{ op: 'add-items', name: 'tenants', id: 'l1', items: [{ hostname: { url_hostname: '*.example.org' } }] }]);
  });

  it('export writes the flag, and the export plans nothing against the list it came from', () => {
    const exported = exportAccountManifest(live(false));
    expect(exported).toContain('exclude_exact_hostname: false');
    expect(diffLists(account(exported), live(false)).writes).toEqual({ before: [], after: [] });
  });

  it('offline, *.example.org with the flag false matches example.org too; the default matches subdomains only', () => {
    const lists = listsOf(account(text));
    expect(lists.tenants).toEqual(['*.example.org', 'example.org', '*.example.net', 'app.example.com']);
  });
});
