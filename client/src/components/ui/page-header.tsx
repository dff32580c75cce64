import { ReactNode } from 'react';
import { Flex, Heading } from '@chakra-ui/react';

/** A list page's title (h1) with its actions beside it, below it on narrow screens. */
export function PageHeader({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <Flex
      justify="space-between"
      align={{ base: 'start', md: 'center' }}
      direction={{ base: 'column', md: 'row' }}
      gap="3"
      mb="4"
    >
      <Heading as="h1" size="xl">
        {title}
      </Heading>
      {children}
    </Flex>
  );
}
