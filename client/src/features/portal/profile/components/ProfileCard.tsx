import { ReactNode } from 'react';
import { Card, Heading } from '@chakra-ui/react';

/** One section of the profile page: a titled card; `dialogs` sit after its body. */
export function ProfileCard({
  title,
  testId,
  children,
  dialogs,
}: {
  title: string;
  testId: string;
  children: ReactNode;
  dialogs?: ReactNode;
}) {
  return (
    <Card.Root data-testid={testId}>
      <Card.Header>
        <Heading size="md">{title}</Heading>
      </Card.Header>
      <Card.Body>{children}</Card.Body>
      {dialogs}
    </Card.Root>
  );
}
