/**
 * Page-aligned buffers for direct reads (O_DIRECT needs the memory it reads into aligned to the device's blocks),
 * shared by every stream of the process and reused.
 *
 * They are WebAssembly memories: Node has no other way to get memory at an aligned address, and those start on a
 * 64 KiB boundary. V8 reserves several GiB of address space for each one (for its bounds checks) and frees it only
 * when a GC collects it, so a memory per download would run the process out of address space under many concurrent
 * downloads: at most MAX_ALIGNED_BUFFERS exist at once, and a reader that finds none free reads through the page cache.
 */

const WASM_PAGE = 64 * 1024;

/** Buffers alive at most (taken or idle): eight downloads reading directly at once, two buffers each. */
export const MAX_ALIGNED_BUFFERS = 16;
/** Idle buffers kept for the next reader; more are let go (a GC frees them). */
const MAX_IDLE = 4;

/** Node's WebAssembly.Memory (the project's TypeScript libraries leave WebAssembly out). */
const WasmMemory = (globalThis as unknown as { WebAssembly: { Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer } } }).WebAssembly.Memory;

const idle: Buffer[] = [];
let alive = 0;

/** `count` aligned buffers of at least `size` bytes each, or undefined when the process has no more to give. */
export function takeAlignedBuffers(count: number, size: number): Buffer[] | undefined {
  const bytes = Math.ceil(size / WASM_PAGE) * WASM_PAGE;
  const taken: Buffer[] = [];
  for (let i = idle.length - 1; i >= 0 && taken.length < count; i--) if (idle[i].length === bytes) taken.push(...idle.splice(i, 1));
  while (taken.length < count) {
    // The idle buffers left are of another size: each new one of this size lets one of them go.
    if (idle.length > 0) {
      idle.pop();
      alive--;
    }
    if (alive >= MAX_ALIGNED_BUFFERS) break;
    alive++;
    taken.push(Buffer.from(new WasmMemory({ initial: bytes / WASM_PAGE }).buffer));
  }
  if (taken.length < count) {
    giveBackAlignedBuffers(taken);
    return undefined;
  }
  return taken;
}

/** Returns buffers from `takeAlignedBuffers` once no read uses them. */
export function giveBackAlignedBuffers(buffers: Buffer[]): void {
  for (const buffer of buffers) {
    if (idle.length < MAX_IDLE) idle.push(buffer);
    else alive--;
  }
}

/** Buffers alive now (taken or idle), for tests. */
export function alignedBuffersAlive(): number {
  return alive;
}
