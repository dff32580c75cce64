import { Transform } from 'class-transformer';
import { trim } from '../../../platform/web/transforms';
import { IsInt, IsOptional, Min, ValidateBy, ValidationOptions } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { FEEDBACK_MESSAGES, SHELL_LIMITS } from '../../../shared/portal/shell';
import { FeedbackRequest } from '../../../shared/api-types';

/** Non-blank text of at most `max` characters; one message per field (the specification's when missing). */
function RequiredText(requiredMessage: string, max: number, options?: ValidationOptions): PropertyDecorator {
  const rule = ValidateBy(
    {
      name: 'requiredText',
      validator: {
        validate: (v: unknown) => typeof v === 'string' && v.length > 0 && v.length <= max,
        defaultMessage: (args) =>
          typeof args?.value === 'string' && args.value.length > max
            ? `${args.property} must be at most ${max} characters.`
            : requiredMessage,
      },
    },
    options,
  );
  // The same bounds, for the OpenAPI document (a custom rule is opaque to its generator).
  const schema = JSONSchema({ type: 'string', minLength: 1, maxLength: max });
  return (target, key) => {
    rule(target, key);
    schema(target, String(key));
  };
}

/** POST /api/userFeedback/add (spec 001 §7): title, content, userId. */
export class FeedbackDto implements FeedbackRequest {
  @Transform(trim)
  @RequiredText(FEEDBACK_MESSAGES.TITLE_REQUIRED, SHELL_LIMITS.FEEDBACK_TITLE_MAX)
  title!: string;

  @Transform(trim)
  @RequiredText(FEEDBACK_MESSAGES.CONTENT_REQUIRED, SHELL_LIMITS.FEEDBACK_CONTENT_MAX)
  content!: string;

  /** The client sends the signed-in user's id; the server records the caller and refuses anyone else's id. */
  @IsOptional()
  @IsInt()
  @Min(1)
  userId?: number;
}
