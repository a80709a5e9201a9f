/**
 * The provider contract through the HTTP provider against `zonewall serve --runtime workerd`: the
 * Worker of deploy/worker in Miniflare, each zone a SQLite Durable Object. One workerd for the
 * file; each test's zones are created through the API (`POST /zones`) and deleted after it.
 */
import { providerContract } from '../../src/providers/contract.suite.js';
import { workerdContract } from '../helpers/workerd.js';

providerContract('HTTP against zonewall serve --runtime workerd', workerdContract());
