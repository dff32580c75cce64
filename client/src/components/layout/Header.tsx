import { Box, Flex, HStack, Image, Link, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { ProfileMenu } from './ProfileMenu';

/** Spec 001 §9: header top padding 70 px. */
export const HEADER_HEIGHT = 70;

/** The fixed top bar (spec 001 §2.2). */
export function Header() {
  return (
    <Box as="header" position="fixed" top="0" insetX="0" zIndex="sticky" bg="bg" borderBottomWidth="1px" shadow="xs">
      <Flex h="60px" px={{ base: '3', md: '6' }} align="center" justify="space-between" gap="4">
        <Link asChild _hover={{ textDecoration: 'none' }}>
          <RouterLink to="/" aria-label="Home">
            <HStack gap="2">
              <Image src="/logo.svg" alt="Tax Portal" h="36px" />
              <Text fontWeight="bold" display={{ base: 'none', md: 'block' }}>
                Tax Portal
              </Text>
            </HStack>
          </RouterLink>
        </Link>
        <HStack gap="2">
          {/* header-slot:controls (compact mode, notifications bell, cog menu) */}
          <ProfileMenu />
        </HStack>
      </Flex>
    </Box>
  );
}
