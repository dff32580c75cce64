import { Switch } from '@chakra-ui/react';
import { Global } from '@emotion/react';
import { useCompactMode } from './preferences';

/** Compact mode (spec 001 §2.2): a denser theme, every rem-based size shrinks; kept in local storage. */
export function CompactModeSwitch() {
  const [compact, setCompact] = useCompactMode();
  return (
    <>
      <Global styles={{ 'html[data-compact="true"]': { fontSize: '87.5%' } }} />
      <Switch.Root
        size="sm"
        checked={compact}
        onCheckedChange={(e) => setCompact(e.checked)}
        data-testid="compact-switch"
        display={{ base: 'none', sm: 'inline-flex' }}
      >
        <Switch.HiddenInput aria-label="Compact mode" />
        <Switch.Control />
        <Switch.Label fontSize="sm" color="fg.muted">
          Compact
        </Switch.Label>
      </Switch.Root>
    </>
  );
}
