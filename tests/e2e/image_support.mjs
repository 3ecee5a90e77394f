// image_support.mjs: images for the preview tests: a PNG of two known
// colours, its upload to the sandbox, and how many pixels of a screenshot
// have one of them.
import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { demoUsers, sandboxRequest } from './support.mjs';

export const LEFT = [231, 41, 187];   // the image's left half
export const RIGHT = [29, 201, 93];   // and its right half

// A PNG of `width` x `height`, its left half LEFT and its right half RIGHT.
export function twoColourPng(width, height) {
  const table = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes) => {
    let c = 0xffffffff;
    for (const b of bytes) c = table[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const length = Buffer.alloc(4); length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4); sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0); header.writeUInt32BE(height, 4);
  header[8] = 8; header[9] = 2;  // 8-bit RGB
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) rows.set(x < width / 2 ? LEFT : RIGHT, y * (width * 3 + 1) + 1 + x * 3);
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

// Uploads `bytes` as `name` to `room`, as Alice, straight to the sandbox: its file_id.
export async function uploadTo(stack, room, name, bytes) {
  const boundary = `----roomkey${Date.now()}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
      'Content-Type: image/png\r\n\r\n'), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  const answer = await sandboxRequest(stack, 'POST', `${stack.sandbox.baseUrl}/rooms/${room}/files`, {
    body, headers: { 'x-servicetoken': demoUsers.alice.apiToken, 'content-type': `multipart/form-data; boundary=${boundary}` } });
  assert.equal(answer.status, 200, answer.text);
  return String(JSON.parse(answer.text).file_id);
}

// How many pixels of `png` are within 8 of `rgb` in each channel.
export function pixelsOf(png, rgb) {
  let n = 0;
  for (let i = 0; i < png.pixels.length; i += png.channels) {
    if (Math.abs(png.pixels[i] - rgb[0]) <= 8 && Math.abs(png.pixels[i + 1] - rgb[1]) <= 8 &&
        Math.abs(png.pixels[i + 2] - rgb[2]) <= 8) n++;
  }
  return n;
}

