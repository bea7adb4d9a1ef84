/** The part of pngjs (v5, untyped) the tests use: reading a PNG into RGBA pixels. */
declare module 'pngjs' {
  export class PNG {
    width: number;
    height: number;
    data: Buffer;
    static sync: { read(buffer: Buffer): PNG };
  }
}
