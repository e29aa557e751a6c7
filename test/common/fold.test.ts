import { describe, expect, test } from 'vitest';
import { foldText, foldWords, nameWordsOf } from '../../common/fold';

describe('name folding', () => {
  test('folds Arabic the way people type it: tashkeel and tatweel ignored, alef forms, ya and ha', () => {
    expect(foldText('لَيلى')).toBe(foldText('ليلى'));
    expect(foldText('لَيْلَى')).toBe('ليلي');
    expect(foldWords('أحمد إبراهيم آمنة ٱلحسن')).toEqual(['احمد', 'ابراهيم', 'امنه', 'الحسن']);
    expect(foldText('فاطمة')).toBe(foldText('فاطمه'));
    expect(foldText('مصطفى')).toBe(foldText('مصطفي'));
    expect(foldText('محـــمد')).toBe('محمد');
    expect(foldText('مُحَمَّد')).toBe('محمد');
    expect(foldText('هدىٰ')).toBe('هدي');
  });

  test('keeps the words of a mixed-script name apart', () => {
    expect(nameWordsOf('عُمر Al-Farsi')).toEqual(['عمر', 'al', 'farsi']);
  });

  test('ignores case and accents that Unicode decomposes', () => {
    expect(foldWords('José ÁLVAREZ-Núñez')).toEqual(['jose', 'alvarez', 'nunez']);
    expect(foldText('Zoë Müller')).toBe('zoe muller');
  });

  test('folds the letters decomposition leaves alone, small and capital', () => {
    expect(foldWords('Søren ØSTERGAARD')).toEqual(['soren', 'ostergaard']);
    expect(foldWords('Łukasz Żółkiewski')).toEqual(['lukasz', 'zolkiewski']);
    expect(foldWords('Işık Yılmaz')).toEqual(['isik', 'yilmaz']);
    expect(foldWords('İSTANBUL')).toEqual(['istanbul']);
    expect(foldWords('Æsa Œuvre Strauß ẞTRASSE')).toEqual(['aesa', 'oeuvre', 'strauss', 'sstrasse']);
    expect(foldWords('Đorđe Ðóra Þór')).toEqual(['dorde', 'dora', 'thor']);
  });

  test('splits on separators, joins across apostrophes', () => {
    expect(foldWords("  O'Brien,   Anne-Marie  ")).toEqual(['obrien', 'anne', 'marie']);
  });

  test('strips Arabic diacritics so vowelled and plain spellings meet', () => {
    expect(foldWords('مُحَمَّد')).toEqual(foldWords('محمد'));
  });

  test('stored name words are distinct', () => {
    expect(nameWordsOf('Anna Anna Berg')).toEqual(['anna', 'berg']);
    expect(nameWordsOf('  -- ')).toEqual([]);
  });
});
