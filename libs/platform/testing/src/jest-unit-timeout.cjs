// Unit tests run two workers beside other work. Some touch the file system, PGlite's WebAssembly or a loopback
// server; on a busy two-core machine one of those takes well over Jest's 5 s default without being stuck.
jest.setTimeout(30000);
