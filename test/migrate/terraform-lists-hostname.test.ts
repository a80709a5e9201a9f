/**
 * A Terraform hostname list item whose `*.` hostname matches the bare domain too
 * (`exclude_exact_hostname = false`) keeps that in the converted account manifest: it was dropped,
 * so the next plan reset the live item to the service's default (true).
 */
import { describe, expect, it } from 'vitest';
import { validateAccountManifestText } from '../../src/manifest/lists/account.js';
import { convertLists, renderAccountManifest } from '../../src/migrate/terraform-lists.js';
import type { TfResource } from '../../src/migrate/terraform-state.js';

const list = (items: Record<string, unknown>): TfResource => ({
  address: 'cloudflare_list.hosts', type: 'cloudflare_list', name: 'hosts',
  attributes: { id: 'l1', account_id: 'acct', name: 'hosts', kind: 'hostname', ...items },
});

function converted(resources: TfResource[], items: TfResource[] = []) {
  const c = convertLists(resources, items, [], [])!;
  const text = renderAccountManifest(c, 'terraform.tfstate');
  const result = validateAccountManifestText(text, 'account.yaml');
  expect(result.issues).toEqual([]);
  return result.account!.lists.find((l) => l.name === 'hosts')!.items;
}

describe('terraform hostname list items', () => {
  it('provider v5 items keep exclude_exact_hostname: false, and only where it is false', () => {
    const items = converted([list({ items: [
      { hostname: { url_hostname: '*.example.org', exclude_exact_hostname: false }, comment: 'apex too' },
      { hostname: { url_hostname: '*.example.net', exclude_exact_hostname: true } },
      { hostname: { url_hostname: 'app.example.com' } },
    ] })]);
    expect(items.map((i) => [i.value, i.excludeExact, i.comment])).toEqual([
      ['*.example.org', false, 'apex too'], ['*.example.net', undefined, undefined], ['app.example.com', undefined, undefined],
    ]);
  });

  it('provider v4 item blocks and cloudflare_list_item resources too', () => {
    const items = converted(
      [list({ item: [{ value: [{ hostname: [{ url_hostname: '*.example.org', exclude_exact_hostname: false }] }] }] })],
      [{ address: 'cloudflare_list_item.x', type: 'cloudflare_list_item', name: 'x', attributes: { list_id: 'l1', hostname: [{ url_hostname: '*.example.com', exclude_exact_hostname: false }] } }],
    );
    expect(items.map((i) => [i.value, i.excludeExact])).toEqual([['*.example.org', false], ['*.example.com', false]]);
  });
});
