import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import { PdfPrinter, type PrintJob } from './printer.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Someone listening on this machine: every TCP connection, HTTP request and websocket upgrade, and UDP packet it gets. */
interface Listener {
  http: Server;
  udp: UdpSocket;
  connections: number;
  requests: string[];
  upgrades: number;
  packets: number;
}

let listener: Listener;
let port: number;
let udpPort: number;

beforeAll(async () => {
  const http = createServer((request, response) => {
    listener.requests.push(request.url ?? '');
    response.setHeader('access-control-allow-origin', '*');
    response.end('');
  });
  const udp = createSocket('udp4');
  listener = { http, udp, connections: 0, requests: [], upgrades: 0, packets: 0 };
  http.on('connection', () => (listener.connections += 1));
  http.on('upgrade', (_request, socket) => {
    listener.upgrades += 1;
    socket.destroy();
  });
  udp.on('message', () => (listener.packets += 1));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
  port = (http.address() as AddressInfo).port;
  udpPort = udp.address().port;
});

afterAll(async () => {
  await new Promise((resolve) => listener.http.close(resolve));
  listener.udp.close();
});

/**
 * A page that tries every way out a printed page has: sub-resources (pictures, a stylesheet, a font, a
 * frame, media), hints (preconnect, DNS prefetch, prefetch), scripts (fetch, XHR, a websocket, an event
 * stream, a beacon, a popup, a worker's fetch, WebRTC to a STUN server), by address and by name.
 */
function exfiltratingPage(): string {
  const hosts = ['127.0.0.1', 'localhost'];
  // By address and by name, plain and secure (a secure attempt still opens a connection before its handshake fails).
  const at = (host: string, what: string, secure = false) => `${secure ? 'https' : 'http'}://${host}:${port}/${what}`;
  const tags = hosts
    .map(
      (host) => `
    <img src="${at(host, 'img')}" alt=""><img src="${at(host, 'secure-img', true)}" alt="">
    <link rel="stylesheet" href="${at(host, 'css')}">
    <link rel="preconnect" href="${at(host, '')}"><link rel="dns-prefetch" href="${at(host, '')}"><link rel="prefetch" href="${at(host, 'prefetch')}">
    <iframe src="${at(host, 'frame')}"></iframe>
    <video src="${at(host, 'video')}" autoplay></video>
    <div style="background-image: url('${at(host, 'background')}'); width: 10px; height: 10px"></div>`,
    )
    .join('');
  const script = hosts
    .map(
      (host) => `
    try { fetch('${at(host, 'fetch')}').catch(function () {}); } catch (e) {}
    try { fetch('${at(host, 'secure-fetch', true)}').catch(function () {}); } catch (e) {}
    try { new WebSocket('wss://${host}:${port}/secure-ws'); } catch (e) {}
    try { var x = new XMLHttpRequest(); x.open('GET', '${at(host, 'xhr')}'); x.send(); } catch (e) {}
    try { new WebSocket('ws://${host}:${port}/ws'); } catch (e) {}
    try { new EventSource('${at(host, 'events')}'); } catch (e) {}
    try { navigator.sendBeacon('${at(host, 'beacon')}', 'data'); } catch (e) {}
    try { window.open('${at(host, 'popup')}'); } catch (e) {}
    try { new Worker(URL.createObjectURL(new Blob(["fetch('${at(host, 'worker')}').catch(function () {})"], { type: 'text/javascript' }))); } catch (e) {}`,
    )
    .join('');
  const webrtc = `
    try {
      var peer = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.1:${udpPort}' }] });
      peer.createDataChannel('out');
      peer.createOffer().then(function (offer) { return peer.setLocalDescription(offer); }).catch(function () {});
    } catch (e) {}`;
  return `<!doctype html><html><head><meta charset="utf-8">
    <style>@font-face { font-family: Out; src: url('${at('127.0.0.1', 'font')}'); } p { font-family: Out; }</style>
    </head><body><p>The page that tries to call out</p>${tags}<script>${script}${webrtc}</script></body></html>`;
}

const job = (html: string): PrintJob => ({
  html,
  files: new Map(),
  charts: [],
  headerTemplate: '<span></span>',
  footerTemplate: '<span></span>',
  tagged: false,
});

/** Lets attempts started by the page (a popup, a worker, ICE gathering) reach the listener if they can. */
const grace = () => new Promise((resolve) => setTimeout(resolve, 1_500));

const reset = () => Object.assign(listener, { connections: 0, requests: [], upgrades: 0, packets: 0 });

describe('the print page', () => {
  it('reaches the listener when loaded in a plain browser (the attempts work)', async () => {
    reset();
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${port}/start`);
      await page.setContent(exfiltratingPage());
      await grace();
    } finally {
      await browser.close();
    }
    expect(listener.upgrades).toBeGreaterThan(0);
    expect(listener.requests).toEqual(expect.arrayContaining(['/img', '/fetch', '/xhr', '/beacon', '/popup', '/worker']));
    expect(listener.packets).toBeGreaterThan(0);
  });

  it('prints, and nothing it tries to open leaves: no connection, request, websocket or packet reaches the listener', async () => {
    reset();
    const printer = new PdfPrinter({ executablePath: CHROMIUM });
    try {
      await printer.session(async (session) => {
        const pdf = await session.print(job(exfiltratingPage()));
        expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
        // The session's tab stays open after the print: anything its page started late has time to try.
        await grace();
      });
    } finally {
      await printer.close();
    }
    expect({
      connections: listener.connections,
      requests: listener.requests,
      upgrades: listener.upgrades,
      packets: listener.packets,
    }).toEqual({ connections: 0, requests: [], upgrades: 0, packets: 0 });
  });
});
