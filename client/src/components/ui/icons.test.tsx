import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { ChakraProvider } from '@chakra-ui/react';
import { system } from '@/app/theme';
import { CloseIcon, CogIcon, HomeIcon, MenuIcon } from './icons';

describe('shell icons', () => {
  it.each([
    ['HomeIcon', HomeIcon],
    ['MenuIcon', MenuIcon],
    ['CloseIcon', CloseIcon],
    ['CogIcon', CogIcon],
  ])('%s draws a path inside an svg (a bare <path> is invisible)', (_name, IconComponent) => {
    const { container } = render(
      <ChakraProvider value={system}>
        <IconComponent />
      </ChakraProvider>,
    );
    const svg = container.querySelector('svg');
    expect(svg).not.toBeNull();
    expect(svg!.getAttribute('viewBox')).toBe('0 0 24 24');
    expect(svg!.querySelector('path')).not.toBeNull();
  });
});
