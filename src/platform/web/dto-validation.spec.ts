import { plainToInstance } from 'class-transformer';
import { IsInt, IsOptional, validateSync } from 'class-validator';
import { OmitOrValid, WholeNumberField } from './dto-validation';

class Example {
  @OmitOrValid()
  @IsInt()
  strict?: number;

  @IsOptional()
  @IsInt()
  lenient?: number | null;
}

const errors = (plain: object) => validateSync(plainToInstance(Example, plain)).map((e) => e.property);

describe('OmitOrValid', () => {
  it('lets a field be left out, and validates it when sent', () => {
    expect(errors({})).toEqual([]);
    expect(errors({ strict: 3 })).toEqual([]);
    expect(errors({ strict: 'x' })).toEqual(['strict']);
  });

  it('refuses null, where @IsOptional lets it through', () => {
    expect(errors({ strict: null })).toEqual(['strict']);
    expect(errors({ lenient: null })).toEqual([]);
  });
});

class Paged {
  @WholeNumberField('page', { max: 1000 })
  page?: number;
}

/** The messages for `page`, once each (as the validation pipe's error body lists them). */
const pageErrors = (page: unknown) => [
  ...new Set(validateSync(plainToInstance(Paged, { page })).flatMap((e) => Object.values(e.constraints ?? {}))),
];

describe('WholeNumberField', () => {
  it('reads decimal digits as a number, within its bounds', () => {
    expect(plainToInstance(Paged, { page: '12' }).page).toBe(12);
    expect(pageErrors('1')).toEqual([]);
    expect(pageErrors('1000')).toEqual([]);
    expect(pageErrors(undefined)).toEqual([]);
  });

  it('refuses everything else with one message: exponents, fractions, hex, spaces, empty, out of bounds, repeated', () => {
    for (const value of [
      '1e3',
      '1.5',
      '0x10',
      ' 1',
      '',
      'abc',
      '0',
      '-1',
      '1001',
      '9999999999999999999999',
      ['1', '2'],
    ])
      expect({ value, errors: pageErrors(value) }).toEqual({
        value,
        errors: ['page must be a whole number from 1 to 1000.'],
      });
  });
});
