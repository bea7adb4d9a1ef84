import { describe, expect, it } from '@jest/globals';
import { exportCell } from './export-cell.js';

describe('exportCell', () => {
  it('writes a cell a spreadsheet would run as a formula as text, and leaves the rest alone', () => {
    for (const formula of ['=HYPERLINK("http://x","y")', '+5511987654321', '-2+3', '@SUM(1)', '\t=1', '\r=1'])
      expect(exportCell(formula)).toBe(`'${formula}`);
    for (const plain of ['Maria', '5511987654321', 'a=b', '', ' =1', "'=1"]) expect(exportCell(plain)).toBe(plain);
    expect(exportCell(5511987654321)).toBe('5511987654321');
    expect(exportCell(null)).toBe('');
  });
});
