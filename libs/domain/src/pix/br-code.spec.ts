import { describe, expect, it } from '@jest/globals';
import { BrCodeError, crc16CcittFalse, decodeBrCode, encodeBrCode, foldToAscii } from './br-code.js';

/** The Banco Central's BR Code manual: a static code with a random key, no amount, no txid. */
const BCB_STATIC =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';
/** The same manual's dynamic code: once only (01 = 12), a location URL, an amount (123.45) and a txid. */
const BCB_DYNAMIC =
  '00020101021226720014br.gov.bcb.pix2550bx.com.br/pix/8b3da2f3-9a41-40d1-a91a-bd93113bd4415204000053039865406123.455802BR5913Fulano de Tal6008BRASILIA62190515RP12345678-2019630445C8';
/** pix-utils' test vectors (github.com/thalesog/pix-utils, tests/emvCodes.ts): a key, a description and 10.00; a URL. */
const PIX_UTILS_STATIC =
  '00020126510014br.gov.bcb.pix0115thalesog@me.com0210Pedido 123520400005303986540510.005802BR5914Thales Ogliari6015SAO MIGUEL DO O62070503***63044367';
const PIX_UTILS_DYNAMIC =
  '00020126740014br.gov.bcb.pix2552payload.psp.com/3ec9d2f9-5f03-4e0e-820d-63a81e769e875204000053039865802BR5914Thales Ogliari6015SAO MIGUEL DO O62070503***63040C64';

/** The code with its last 4 characters (the CRC) recomputed: an altered code that still checks. */
const withCrc = (bodyWith6304: string) => bodyWith6304 + crc16CcittFalse(bodyWith6304);

const refusal = (code: string): string => {
  try {
    decodeBrCode(code);
  } catch (e) {
    expect(e).toBeInstanceOf(BrCodeError);
    return (e as Error).message;
  }
  throw new Error(`decodeBrCode accepted ${code}`);
};

describe('crc16CcittFalse', () => {
  it('gives the check value of the CRC-16/CCITT-FALSE catalogue entry and the manual example', () => {
    expect(crc16CcittFalse('123456789')).toBe('29B1');
    expect(crc16CcittFalse(BCB_STATIC.slice(0, -4))).toBe('1D3D');
    expect(crc16CcittFalse('')).toBe('FFFF');
  });
});

describe('decodeBrCode and encodeBrCode', () => {
  it("reads the Banco Central manual's static example and writes it back byte for byte", () => {
    const decoded = decodeBrCode(BCB_STATIC);
    expect(decoded).toEqual({
      key: '123e4567-e12b-12d1-a456-426655440000',
      merchantName: 'Fulano de Tal',
      merchantCity: 'BRASILIA',
      crc: '1D3D',
    });
    expect(encodeBrCode(decoded)).toBe(BCB_STATIC);
  });

  it("reads the manual's dynamic example (URL, amount, txid, once only) and writes it back byte for byte", () => {
    const decoded = decodeBrCode(BCB_DYNAMIC);
    expect(decoded).toEqual({
      url: 'bx.com.br/pix/8b3da2f3-9a41-40d1-a91a-bd93113bd441',
      amountCents: 12345,
      merchantName: 'Fulano de Tal',
      merchantCity: 'BRASILIA',
      txid: 'RP12345678-2019',
      pointOfInitiation: '12',
      crc: '45C8',
    });
    expect(encodeBrCode(decoded)).toBe(BCB_DYNAMIC);
  });

  it("writes pix-utils' vectors from their fields, folding the city's accents", () => {
    const fields = { merchantName: 'Thales Ogliari', merchantCity: 'SÃO MIGUÉL DO O' };
    expect(encodeBrCode({ ...fields, key: 'thalesog@me.com', description: 'Pedido 123', amountCents: 1000 })).toBe(PIX_UTILS_STATIC);
    expect(encodeBrCode({ ...fields, url: 'payload.psp.com/3ec9d2f9-5f03-4e0e-820d-63a81e769e87' })).toBe(PIX_UTILS_DYNAMIC);
    expect(decodeBrCode(PIX_UTILS_STATIC)).toMatchObject({ key: 'thalesog@me.com', description: 'Pedido 123', amountCents: 1000 });
  });

  it('reads codes as banks write them: an upper-case GUI, a lower-case CRC', () => {
    const upper = withCrc(
      '00020126360014BR.GOV.BCB.PIX0114+5511943214321520400005303986540566.665802BR5907EMPRESA6008BRASILIA62070503***6304',
    );
    expect(decodeBrCode(upper)).toMatchObject({ key: '+5511943214321', amountCents: 6666, merchantName: 'EMPRESA' });
    expect(decodeBrCode(BCB_STATIC.slice(0, -4) + '1d3d').crc).toBe('1D3D');
  });

  it('writes the amount with two decimals from cents (4990 → 540549.90), and none when there is no amount', () => {
    const base = { key: 'financeiro@conversa.local', merchantName: 'Conversa', merchantCity: 'Sao Paulo', txid: 'inv42abc' };
    const code = encodeBrCode({ ...base, amountCents: 4990 });
    expect(code).toContain('5303986540549.905802BR');
    expect(code).toContain('62120508inv42abc6304');
    expect(decodeBrCode(code)).toMatchObject({ amountCents: 4990, txid: 'inv42abc', key: 'financeiro@conversa.local' });
    expect(encodeBrCode({ ...base, amountCents: 5 })).toContain('54040.05');
    expect(encodeBrCode({ ...base, amountCents: 123456789 })).toContain('54101234567.89');
    const free = encodeBrCode(base);
    expect(free).toContain('53039865802BR');
    expect(decodeBrCode(free).amountCents).toBeUndefined();
    for (const bad of [0, -100, 49.9, Number.NaN]) expect(() => encodeBrCode({ ...base, amountCents: bad })).toThrow(BrCodeError);
  });

  it('folds the name and the city to ASCII and cuts them to 25 and 15 characters', () => {
    const code = encodeBrCode({
      key: 'k@x.com',
      merchantName: 'Associação Brasileira de Ações Ltda',
      merchantCity: 'São José dos Campos',
    });
    const decoded = decodeBrCode(code);
    expect(decoded.merchantName).toBe('Associacao Brasileira de');
    expect(decoded.merchantCity).toBe('Sao Jose dos Ca');
    expect(code).toContain('5924Associacao Brasileira de6015Sao Jose dos Ca');
    expect(foldToAscii('  Ñandú   Çedilha ☃ ', 25)).toBe('Nandu Cedilha');
    expect(() => encodeBrCode({ key: 'k@x.com', merchantName: '☃☃', merchantCity: 'Recife' })).toThrow('merchant name is empty');
  });

  it('refuses to write what a BR Code cannot hold', () => {
    const base = { merchantName: 'Conversa', merchantCity: 'Recife' };
    expect(() => encodeBrCode(base)).toThrow(BrCodeError);
    expect(() => encodeBrCode({ ...base, key: 'a@b.c', url: 'x.com/1' })).toThrow('either a Pix key or a location URL');
    expect(() => encodeBrCode({ ...base, url: 'https://x.com/1' })).toThrow('without its https://');
    expect(() => encodeBrCode({ ...base, key: 'a@b.c', txid: 'x'.repeat(26) })).toThrow('1 to 25');
    expect(() => encodeBrCode({ ...base, key: 'a@b.c', txid: 'has space' })).toThrow(BrCodeError);
    // the merchant account (GUI + key + description) would pass 99 characters
    expect(() => encodeBrCode({ ...base, key: 'k'.repeat(60), description: 'd'.repeat(30) })).toThrow('at most 99');
  });

  it('refuses a flipped CRC, a wrong length, a truncated code, and missing mandatory fields', () => {
    expect(refusal(BCB_STATIC.slice(0, -4) + '1D3E')).toMatch(/CRC is 1D3E but .* gives 1D3D/);
    expect(refusal(BCB_DYNAMIC.replace('45C8', '54C8'))).toMatch(/CRC/);
    // a character changed inside the code: the CRC no longer matches
    expect(refusal(BCB_STATIC.replace('Fulano', 'Fulana'))).toMatch(/CRC/);
    // 59 says 14 characters for a 13-character name: every field after it shifts, the CRC recomputed to match
    expect(refusal(withCrc(BCB_STATIC.slice(0, -4).replace('5913Fulano', '5914Fulano')))).toMatch(/field|mandatory/);
    // a length running past the end
    expect(refusal(withCrc('000201265800'))).toMatch(/field 26 says 58 characters but only 6 follow/);
    // cut short: the CRC field is gone, or half of it
    expect(refusal(BCB_STATIC.slice(0, 60))).toMatch(/truncated|CRC/);
    expect(refusal(BCB_STATIC.slice(0, -2))).toMatch(/truncated/);
    expect(refusal('')).toMatch(/last field must be 63/);
    expect(refusal('hello world')).toMatch(/expected a field id/);
    // a mandatory field left out, the CRC recomputed
    expect(refusal(withCrc(BCB_STATIC.slice(0, -4).replace('5802BR', '')))).toMatch(/field 58 \(country\) is missing/);
    expect(refusal(withCrc(BCB_STATIC.slice(0, -4).replace('62070503***', '')))).toMatch(/field 62 \(additional data\) is missing/);
    expect(refusal(withCrc(BCB_STATIC.slice(0, -4).replace('5303986', '5303840')))).toMatch(/not 986/);
    expect(refusal(withCrc(BCB_STATIC.slice(0, -4).replace('br.gov.bcb.pix', 'br.gov.bcb.xxx')))).toMatch(/merchant account/);
    expect(refusal(withCrc(BCB_STATIC.slice(0, -4).replace('000201', '000202')))).toMatch(/payload format/);
  });
});
