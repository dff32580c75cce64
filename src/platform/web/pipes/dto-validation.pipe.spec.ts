import { IsString, MaxLength } from 'class-validator';
import { DtoValidationPipe } from './dto-validation.pipe';

class Named {
  @IsString()
  @MaxLength(5)
  name!: string;
}

const asBody = { type: 'body', metatype: Named } as const;

describe('DtoValidationPipe', () => {
  const pipe = new DtoValidationPipe();

  it('validates a plain body as the global pipe does: unknown fields and wrong values are a 400', async () => {
    await expect(pipe.transform({ name: 'ok' }, asBody)).resolves.toBeInstanceOf(Named);
    await expect(pipe.transform({ name: 'too long' }, asBody)).rejects.toMatchObject({ status: 400 });
    await expect(pipe.transform({ name: 'ok', extra: 1 }, asBody)).rejects.toMatchObject({ status: 400 });
  });

  it('passes on a body a guard already made an instance of its DTO, the same object', async () => {
    const checked = Object.assign(new Named(), { name: 'ok' });
    await expect(pipe.transform(checked, asBody)).resolves.toBe(checked);
  });

  it('validates a plain object even where it looks like the DTO, and a query like a body', async () => {
    await expect(pipe.transform({ name: 'far too long' }, asBody)).rejects.toMatchObject({ status: 400 });
    await expect(
      pipe.transform(Object.assign(new Named(), { name: 'far too long' }), { type: 'query', metatype: Named }),
    ).rejects.toMatchObject({ status: 400 });
  });
});
