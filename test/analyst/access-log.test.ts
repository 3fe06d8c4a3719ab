import { describe, expect, it } from 'vitest';
import { answeredAsClientError, pathOf, statusOf } from '../../lib/analyst/access-log.ts';

/** A CloudFront standard log line: date, time, edge, bytes, client, method, host, path, status, … (tab-separated). */
const cloudFront = (host: string, path: string, status: number, bytes = 1650) =>
  ['2026-06-02', '13:18:21', 'AMS58-P2', String(bytes), '203.0.113.14', 'GET', host, path, String(status), '-', 'Mozilla/5.0%20zgrab/0.x', '-', '-', 'Error'].join('\t');

describe('access log lines', () => {
  it('a CloudFront line names its path after the host, whether the host is written out or masked', () => {
    for (const host of ['d3k9qz7x1m2p0a.cloudfront.net', '<HOST_5>']) {
      const line = cloudFront(host, '/.env.production', 404);
      expect(pathOf(line), host).toBe('/.env.production');
      expect(statusOf(line), host).toBe(404);
      expect(answeredAsClientError(line), host).toBe(true);
    }
  });

  it('a CloudFront line\'s status is the field after its path, though the bytes before it have three digits', () => {
    const line = cloudFront('<HOST_4>', '/.svn/entries', 403, 552);
    expect(statusOf(line)).toBe(403);
    expect(answeredAsClientError(line)).toBe(true);
  });

  it('a line with the scheme before the host, or the path right after the method, is read the same', () => {
    expect(pathOf('GET https shop.example.com /wp-login.php 404')).toBe('/wp-login.php');
    expect(pathOf('GET /wp-login.php HTTP/1.1" 404')).toBe('/wp-login.php');
  });

  it('a word after the method that is not a host is no path', () => {
    expect(pathOf('GET request failed: upstream 502')).toBeUndefined();
  });
});
