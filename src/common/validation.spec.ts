import { plainToInstance } from 'class-transformer';
import { IsInt, IsOptional, validateSync } from 'class-validator';
import { OmitOrValid } from './validation';

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
