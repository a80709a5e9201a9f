/**
 * The managed ruleset catalog as the manifest sees it, generated from src/engine/catalog by
 * `npm run gen` (scripts/gen-catalog.ts). Do not edit: change the engine's catalog and regenerate.
 * test/manifest/generated-catalog.test.ts fails when this file is stale.
 */

/** One managed ruleset: what a manifest may name in its overrides. */
export interface ManagedCatalogEntry {
  readonly alias: string;
  readonly name: string;
  readonly rules: readonly string[];
  readonly categories: readonly string[];
  /** Rules that take a `score_threshold` override (OWASP 949110). */
  readonly scoreThresholdRules: readonly string[];
}

/** Managed rulesets by id. */
export const ManagedCatalog: Readonly<Record<string, ManagedCatalogEntry>> = {
  'efb7b8c949ac4650a09736fc376e9aee': {
    alias: 'managed',
    name: 'Cloudflare Managed Ruleset',
    rules: ['5f6744fa026a4638bda5b3d7d5e015dd', '3536f964ccc345308b6445e8dc29b753', 'f3c07b95144e40169abed3ee901523c0', '1ec47d7bbc9740f88e10292034ab53c5', '0242110ae62e44028a13bf4834780914', '920e3b10aa934194928a598a2753531e', '8395a6bedf454601b0928d6885c293eb', '6ebf227e51954025919cdf17afae3d67', '530a0370d373425e829a3d4498760cfd', '2ce80fe815254f25b3c8f47569fe1e0d', '6e0bfbe4b9c6454c8bd7bd24f49e5840', 'c993997b7d904a9e89448fe6a6d43bc2', 'f40ce742be534ba19d610961ce6311bb', '870cca2b874d41738019d4c3e31d972a', '34583778093748cc83ff7b38f472013e', '23ee7cebe6e8443e99ecf932ab579455', '0c054d4e4dd5455c9ff8f01efe5abb10', 'e7e4b386797e417c998d872956c390a1', '6b1cc72dff9746469d4695a474430f12', '5de7edfa648c4d6891dc3e7f84534ffa', 'e3a567afc347477d9702d9047e97d760', '75a0060762034a6cb663fd51a02344cb', '980d7e2b83ed20901de42bc07e216b47', 'cf91d1c5ddbb2847bd746538280bb05a', 'eb2b6cce5d17f95131a270f5e7e98292', '22d9541045bad379ae9f196e08a48bff', '86bd23bb11f2429266c2836642d4e399', 'b5105d49a8fe620f84651093bb029d95', '06888eef8418e64ada69b88cae21ea7c', 'a0812b51a981dcdc7faf4202c157d5b6', '9d5d7f4bf30c0e02240c23eecc55f971', '140659cc1bc300f333fe6a32bc60a252', '4eabfbddfadc7879e2b46ead7b3b998d'],
    categories: ['apache', 'apache-struts', 'beta', 'broken-access-control', 'cleo', 'code-injection', 'command-injection', 'cve-2012-1823', 'cve-2013-2248', 'cve-2014-3704', 'cve-2014-6271', 'cve-2018-7600', 'cve-2021-40438', 'cve-2021-44228', 'cve-2023-46805', 'cve-2024-21887', 'cve-2024-23897', 'cve-2024-3116', 'cve-2024-53677', 'cve-2024-55953', 'cve-2024-55956', 'cve-2025-29927', 'deserialization', 'dotnetnuke', 'drupal', 'groovy', 'information-disclosure', 'ivanti', 'java', 'jenkins', 'lfi', 'log4j', 'mssql', 'nextjs', 'nosql', 'pgadmin', 'php', 'plone', 'rce', 'scanner', 'sentry', 'shellshock', 'sqli', 'ssrf', 'wordpress', 'xss'],
    scoreThresholdRules: [],
  },
  '4814384a9e5d4991b9815dcfc25d2f1f': {
    alias: 'owasp',
    name: 'Cloudflare OWASP Core Ruleset',
    rules: ['a6be45d4905042b9964ff81dc12e41d2', 'fa54f3d75ed446e78c22b4ea57b90acf', 'e5a6cb623c28df07e2fcd0824c8fd7fc', '272ce3e6806fbd76f686ea020af4820a', 'f86f8c1f1974689d911aad716489b36e', '942c9cf48e436fb0e9478c41fafc1036', 'e5bba3a4a6af4b0e1a518b069ddb8afb', '9b8358976712f0d83623b88e0523c85e', 'caeef9d6b76bb7f25744735bc1286bc2', '4b723b817f43488aac995f71f41d534c', 'ec42fac3279943388b6be5ee9182835e', '9f2fdadf6d6b33ccbec5ddaef3315eb3', '5d3b980a1f1025ce2a3f409452574c78', 'ee80a0656f733f849131657d2beda142', '37da7855d2f94f69865365d894a556a4', '0f38b4f048015f718f1ac9c79f4fd329', '1e6dd235dfc196eb280be905b408c506', '0c53ad803ddf72afabe09ea075005e04', 'd246f19e79c07064683e32084d62b6e0', '7b65ab8f0f369a33e4781888fd48cc93', '4c0a67320e9fd0520d44de330b1aefa9', 'f2db062052cf453fbe9e93f058ecf7e7', 'b4b1c5a3ceaef3dd599fe89e951c3c27', 'f4b14a2a2a43bc1928d5d77bcb7d102e', 'ae2a194cddde8c3693bb06c2d04a25e0', '1129dfb383bb42e48466488cf3b37cb1', '6179ae15870a4bb7b2d480d4843b323c'],
    categories: ['java', 'lfi', 'paranoia-level-1', 'paranoia-level-2', 'paranoia-level-3', 'paranoia-level-4', 'php', 'protocol', 'rce', 'rfi', 'scanner', 'sqli', 'xss'],
    scoreThresholdRules: ['6179ae15870a4bb7b2d480d4843b323c'],
  },
  '77454fe2d30c4220b5701f6fdfb893ba': {
    alias: 'free',
    name: 'Cloudflare Free Managed Ruleset',
    rules: ['b453c8ace3a54e0ab7c791510b51dc4d', '7dfd111a6bad4b86bf3522cce6c5792f', '41fef453368aad87157b7029fc94702b', '6753218bff80442309178b1d75eeb71a', '9a7086f585c1739bf3407c9563e7b6fa'],
    categories: ['atlassian', 'confluence', 'cve-2014-6271', 'cve-2021-44228', 'cve-2022-26134', 'java', 'log4j', 'shellshock'],
    scoreThresholdRules: [],
  },
  'c2e184081120413c86c3ab7e14069605': {
    alias: 'exposed_credentials',
    name: 'Cloudflare Exposed Credentials Check Ruleset',
    rules: ['1a8f23b36b28d8f2fb0c99f7e4e6eddd', '84af56a6008f726106ab61e7b3aeb90a', '725dc08f663f58fe68ca5bf89222c9d2', '201c9061ec6cfa2d3b397820864e5384', '1422bf44270a9e4c56dd91fdc22e1b71'],
    categories: ['drupal', 'exposed-credentials', 'generic', 'joomla', 'magento', 'wordpress'],
    scoreThresholdRules: [],
  },
};
