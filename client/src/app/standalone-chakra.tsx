import { ReactNode } from 'react';
import { ChakraProvider } from '@chakra-ui/react';
import { system } from './theme';

/** The application's Chakra theme for the login card's later steps when the card is the page on its own. */
export function StandaloneChakra({ children }: { children?: ReactNode }) {
  return <ChakraProvider value={system}>{children}</ChakraProvider>;
}
