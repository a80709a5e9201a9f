import { describe, expect, it } from 'vitest';
import { validateAccountManifestText, type DesiredAccount } from '../../src/manifest/index.js';
import { diffLists, exportAccountManifest, renderListsPlan, type LiveAccount } from '../../src/plan/index.js';

function account(text: string): DesiredAccount {
  const r = validateAccountManifestText(text, 'account.yaml');
  expect(r.issues).toEqual([]);
  return r.account!;
}

const manifest = [
  'account: acme', 'lists:', '  office:', '    kind: ip', '    description: Office',
  '    items:', '      - 192.0.2.0/24', '      - { value: 2001:DB8::1, comment: v6 }', '      - 198.51.100.7',
  '  bad_asns:', '    kind: asn', '    items: [AS64496]', '',
].join('\n');

/** The live account as the service would hold the manifest after an apply (values as the engine stores them). */
function liveOf(extraItems = 0): LiveAccount {
  return {
    id: 'a1', name: 'acme', lists: [
      { id: 'l1', name: 'office', kind: 'ip', description: 'Office', items: [
        { id: 'i1', value: '192.0.2.0/24' }, { id: 'i2', value: '198.51.100.7' }, { id: 'i3', value: '2001:db8::/64', comment: 'v6' },
        ...Array.from({ length: extraItems }, (_, k) => ({ id: `x${k}`, value: `10.0.${k}.1` })),
      ] },
      { id: 'l2', name: 'bad_asns', kind: 'asn', description: '', items: [{ id: 'i4', value: 64496 }] },
    ],
  };
}

describe('lists plan', () => {
  it('plans every list and item for a new account: creates before the zones, nothing after', () => {
    const plan = diffLists(account(manifest), { id: 'a1', name: 'acme', lists: [] });
    expect(plan.summary).toMatchObject({ create: 2, itemsAdded: 4 });
    expect(plan.writes.before.map((w) => w.op)).toEqual(['create-list', 'add-items', 'create-list', 'add-items']);
    expect(plan.writes.after).toEqual([]);
    expect(plan.writes.before[1]).toMatchObject({ items: [{ ip: '192.0.2.0/24' }, { ip: '2001:db8::/64', comment: 'v6' }, { ip: '198.51.100.7' }] });
    expect(plan.writes.before[3]).toMatchObject({ items: [{ asn: 64496 }] });
  });

  it('a list read back plans nothing (values compared after normalisation, in any order)', () => {
    const plan = diffLists(account(manifest), liveOf());
    expect(plan.summary).toMatchObject({ create: 0, update: 0, delete: 0, unchanged: 2 });
    expect(plan.writes).toEqual({ before: [], after: [] });
    expect(plan.findings).toEqual([]);
    expect(renderListsPlan(plan)).toContain('No changes');
  });

  it('a one-item change is a one-item write, never a replace', () => {
    const text = manifest.replace('      - 198.51.100.7', '      - 198.51.100.8');
    const plan = diffLists(account(text), liveOf(500));
    // The 500 live items the manifest lacks are removals; the manifest of this test keeps them out on purpose.
    const one = diffLists(account(text.replace('    items:\n      - 192', `    items:\n${Array.from({ length: 500 }, (_, k) => `      - 10.0.${k % 256}.${1 + (k >> 8)}\n`).join('')}      - 192`)),
      { ...liveOf(), lists: [{ ...liveOf().lists[0]!, items: [...liveOf().lists[0]!.items, ...Array.from({ length: 500 }, (_, k) => ({ id: `x${k}`, value: `10.0.${k % 256}.${1 + (k >> 8)}` }))] }, liveOf().lists[1]!] });
    expect(one.writes.before).toEqual([
      { op: 'add-items', name: 'office', id: 'l1', items: [{ ip: '198.51.100.8' }] },
      { op: 'remove-items', name: 'office', id: 'l1', items: [{ id: 'i2' }] },
    ]);
    expect(one.findings).toEqual([]);
    // Removing 501 of 503 items trips the guard.
    expect(plan.findings.map((f) => [f.level, f.code])).toEqual([['danger', 'removes-many-items']]);
    expect(renderListsPlan(plan)).toMatch(/\.\.\. and 482 more \(plan --json lists every item\)/);
  });

  it('a comment change is written with the item (POST overwrites the comment)', () => {
    const plan = diffLists(account(manifest.replace('comment: v6', 'comment: IPv6 office')), liveOf());
    expect(plan.writes.before).toEqual([{ op: 'add-items', name: 'office', id: 'l1', items: [{ ip: '2001:db8::/64', comment: 'IPv6 office' }] }]);
    expect(renderListsPlan(plan)).toContain('~ 2001:db8::/64 comment: "v6" -> "IPv6 office"');
  });

  it('deleting a list is guarded, and refused while a rule still uses it (the rule named)', () => {
    const text = manifest.replace(/ {2}bad_asns:[\s\S]*$/, '');
    const guarded = diffLists(account(text), liveOf());
    expect(guarded.writes.after).toEqual([{ op: 'delete-list', name: 'bad_asns', id: 'l2' }]);
    expect(guarded.findings.map((f) => [f.level, f.code])).toEqual([['danger', 'deletes-list']]);
    const refused = diffLists(account(text), liveOf(), { references: new Map([['bad_asns', ['zone shop.example.com custom_rules.block-asns']]]) });
    expect(refused.findings).toEqual([expect.objectContaining({ level: 'error', code: 'list-referenced', message: expect.stringContaining('zone shop.example.com custom_rules.block-asns still uses it') })]);
  });

  it('a kind change is an error (kind is immutable)', () => {
    const plan = diffLists(account(manifest.replace('kind: asn\n    items: [AS64496]', 'kind: ip\n    items: [192.0.2.9]')), liveOf());
    expect(plan.findings.map((f) => f.code)).toEqual(['list-kind-changed']);
  });

  it('export writes an account manifest that validates and plans nothing', () => {
    const text = exportAccountManifest(liveOf(3), '../schemas/account-manifest.schema.json');
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=../schemas/account-manifest.schema.json');
    const plan = diffLists(account(text), liveOf(3));
    expect(plan.summary).toMatchObject({ create: 0, update: 0, delete: 0, unchanged: 2 });
  });
});
