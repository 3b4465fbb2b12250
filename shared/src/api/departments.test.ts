import { describe, expect, it } from 'vitest';
import { companyCodeForHost } from './departments.js';

/** Spec §6: the company code for department look-ups is one code for local or the main host, another otherwise. */
describe('companyCodeForHost', () => {
  const settings = { mainHosts: ['eln.example.com', 'lab.example.co.kr'], mainCompanyCode: 'MAIN', otherCompanyCode: 'OTHER' };

  it('answers the main code on a local address, with or without a port', () => {
    for (const host of ['localhost', 'localhost:8080', '127.0.0.1', '127.0.0.1:3000', '[::1]', '[::1]:8443', 'LOCALHOST:80']) {
      expect(companyCodeForHost(host, settings), host).toBe('MAIN');
    }
  });

  it('answers the main code on a main host, whatever its case or port', () => {
    for (const host of ['eln.example.com', 'ELN.Example.com', 'eln.example.com:443', 'lab.example.co.kr:8080']) {
      expect(companyCodeForHost(host, settings), host).toBe('MAIN');
    }
  });

  it('answers the other code on any other host, including look-alikes of a main host', () => {
    for (const host of ['partner.example.com', 'eln.example.com.evil.test', 'sub.eln.example.com', '10.0.0.5:8080', 'example.com']) {
      expect(companyCodeForHost(host, settings), host).toBe('OTHER');
    }
    expect(companyCodeForHost('eln.example.com', { ...settings, mainHosts: [] })).toBe('OTHER');
  });
});
