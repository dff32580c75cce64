import { useState } from 'react';
import { Image } from '@chakra-ui/react';
import { useAuth } from '@/lib/auth';
import { useLogo } from '../api/logo-api';

export const DEFAULT_LOGO = '/logo.svg';

/** The header's logo (spec 001 §2.2, §7 'Read logo'): the organisation's, or the product's when it has none or it fails. */
export function HeaderLogo() {
  const { token } = useAuth();
  const logo = useLogo();
  const [broken, setBroken] = useState<string | null>(null);
  const own = token ? logo.data?.logoPath : null;
  const src = own && own !== broken ? own : DEFAULT_LOGO;
  return (
    <Image
      src={src}
      alt="Tax Portal"
      h="36px"
      maxW="160px"
      objectFit="contain"
      data-testid="header-logo"
      onError={() => own && setBroken(own)}
    />
  );
}
