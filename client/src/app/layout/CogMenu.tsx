import { IconButton, Menu, Portal } from '@chakra-ui/react';
import { useNavigate } from 'react-router';
import { useAuth } from '@/lib/auth';
import { useAppInfo } from '@/lib/app-info';
import { CogIcon } from '@/components/ui/icons';
import { MENU_TYPEAHEAD_OFF, TypeaheadMenuContent } from '@/components/ui/menu-typeahead';
import { cogMenuEntries, showsCog, showsDevelopOptions } from '@/config/menu-model';
import { EngineChoice, ServerChoice, useEngineChoice, useServerChoice } from './preferences';

/** The settings cog (spec 001 §2.4): Users, User Groups, Clients by role; two more options in 'develop'; hidden when empty. */
export function CogMenu() {
  const { roles, user } = useAuth();
  const { data: appInfo } = useAppInfo();
  const navigate = useNavigate();
  const [server, setServer] = useServerChoice();
  const [engine, setEngine] = useEngineChoice();
  const applications = user?.applications ?? [];
  if (!showsCog(roles, applications, appInfo?.appEnv)) return null;
  const entries = cogMenuEntries(roles, applications);
  const develop = showsDevelopOptions(appInfo?.appEnv);

  return (
    <Menu.Root
      {...MENU_TYPEAHEAD_OFF}
      positioning={{ placement: 'bottom-end' }}
      onSelect={({ value }) => {
        if (value.startsWith('nav:')) navigate(value.slice(4));
      }}
    >
      <Menu.Trigger asChild>
        <IconButton variant="ghost" aria-label="Settings" data-testid="cog-button">
          <CogIcon />
        </IconButton>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <TypeaheadMenuContent minW="220px" data-testid="cog-menu">
            {entries.map((e) => (
              <Menu.Item key={e.to} value={`nav:${e.to}`}>
                {e.label}
              </Menu.Item>
            ))}
            {develop && (
              <>
                {entries.length > 0 && <Menu.Separator />}
                {[
                  {
                    label: 'Server',
                    value: server,
                    set: (v: string) => setServer(v as ServerChoice),
                    options: [
                      ['local', 'Local server'],
                      ['cloud', 'Cloud server'],
                    ],
                  },
                  {
                    label: 'Engine',
                    value: engine,
                    set: (v: string) => setEngine(v as EngineChoice),
                    options: [
                      ['com', 'COM engine'],
                      ['cloud', 'Cloud engine'],
                    ],
                  },
                ].map((group, i) => (
                  <Menu.ItemGroup key={group.label}>
                    {i > 0 && <Menu.Separator />}
                    <Menu.ItemGroupLabel>{group.label}</Menu.ItemGroupLabel>
                    {/* An item's value is its element id: both groups offer 'cloud', so each value names its group. */}
                    <Menu.RadioItemGroup
                      value={`${group.label}:${group.value}`}
                      onValueChange={({ value }) => group.set(value.slice(group.label.length + 1))}
                    >
                      {group.options.map(([value, text]) => (
                        <Menu.RadioItem key={value} value={`${group.label}:${value}`}>
                          <Menu.ItemText>{text}</Menu.ItemText>
                          <Menu.ItemIndicator />
                        </Menu.RadioItem>
                      ))}
                    </Menu.RadioItemGroup>
                  </Menu.ItemGroup>
                ))}
              </>
            )}
          </TypeaheadMenuContent>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
