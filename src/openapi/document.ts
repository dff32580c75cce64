import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { version } from '../version';

/** The API's OpenAPI document, built from the controllers' and DTOs' metadata: served at /api/docs-json. */
export function openApiDocument(app: INestApplication): OpenAPIObject {
  return SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Tax Portal API')
      .setDescription(
        'Sign-in, user administration and the application shell. Errors: {success: false, statusCode, code, message}.',
      )
      .setVersion(version)
      .addBearerAuth()
      .addApiKey({ type: 'apiKey', name: 'X-Api-Key', in: 'header' }, 'service')
      .build(),
  );
}
