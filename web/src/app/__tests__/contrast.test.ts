import { describe, expect, it } from '@jest/globals';
import { colorPillStyle, contrastRatio, readableTextOn, relativeLuminance, rgbOf } from '../contrast';

describe('text on a colour the user chose (a queue, a tag)', () => {
  it('reads #rgb, #rrggbb and #rrggbbaa; nothing else', () => {
    expect(rgbOf('#FFFF00')).toEqual([255, 255, 0]);
    expect(rgbOf(' #0f0 ')).toEqual([0, 255, 0]);
    expect(rgbOf('#11223380')).toEqual([0x11, 0x22, 0x33]);
    expect(rgbOf('yellow')).toBeNull();
    expect(rgbOf('#12345')).toBeNull();
  });

  it("gives WCAG 2's relative luminance and contrast ratio", () => {
    expect(relativeLuminance('#000000')).toBe(0);
    expect(relativeLuminance('#FFFFFF')).toBe(1);
    expect(relativeLuminance('#FFFF00')).toBeCloseTo(0.9278, 4);
    expect(contrastRatio('#000', '#fff')).toBe(21);
    expect(contrastRatio('#fff', '#fff')).toBe(1);
    // white on Chakra's green.600: 3.3, under the 4.5 small text needs
    expect(contrastRatio('#ffffff', '#16a34a')).toBeCloseTo(3.3, 1);
    expect(contrastRatio('#fff', 'white')).toBeNull();
  });

  it('writes black on light colours (#FFFF00, #FFFFFF) and white on dark ones, always with a contrast of 4.5 or more', () => {
    expect(readableTextOn('#FFFF00')).toBe('#000000');
    expect(readableTextOn('#FFFFFF')).toBe('#000000');
    expect(readableTextOn('#9e9e9e')).toBe('#000000');
    expect(readableTextOn('#000080')).toBe('#ffffff');
    expect(readableTextOn('#7B1FA2')).toBe('#ffffff');
    // a name or a bad value: taken as light
    expect(readableTextOn('navy')).toBe('#000000');
    for (const bg of [
      '#FFFF00',
      '#FFFFFF',
      '#00FF00',
      '#00FFFF',
      '#FF0000',
      '#0000FF',
      '#808080',
      '#2e7d32',
      '#F9A825',
      '#1976D2',
      '#000000',
    ])
      expect(contrastRatio(readableTextOn(bg), bg)).toBeGreaterThanOrEqual(4.5);
  });

  it('paints a pill of the colour with its readable text', () => {
    expect(colorPillStyle('#FFFF00')).toEqual({ background: '#FFFF00', color: '#000000' });
    expect(colorPillStyle('#1565c0')).toEqual({ background: '#1565c0', color: '#ffffff' });
  });
});
