// Makes a schema thumbnail's small copy off the server's event loop: decoding a large picture in pure
// JavaScript takes seconds, and live editing must not wait for it. Plain JavaScript, so it loads the same
// under tsx, vitest and a build. Input and output: see makeSmallCopy in thumbnail.ts.
import { parentPort, workerData } from 'node:worker_threads';
import { Jimp } from 'jimp';

const { bytes, jpeg, width, height } = workerData;
try {
  // The JPEG decoder's own memory cap (512 MB) is below what a 25 Mpx photo needs.
  const image = await Jimp.fromBuffer(Buffer.from(bytes), { 'image/jpeg': { maxMemoryUsageInMB: 1024 } });
  if (width !== image.width || height !== image.height) image.resize({ w: width, h: height });
  const content = jpeg ? await image.getBuffer('image/jpeg', { quality: 82 }) : await image.getBuffer('image/png');
  parentPort.postMessage({ ok: true, content, width: image.width, height: image.height });
} catch (error) {
  parentPort.postMessage({ ok: false, message: String(error instanceof Error ? error.message : error) });
}
