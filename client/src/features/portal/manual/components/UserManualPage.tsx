import { Box, Heading, List, Stack, Text } from '@chakra-ui/react';
import { ReactNode } from 'react';

function Topic({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box as="section" bg="bg" borderWidth="1px" rounded="md" p="5">
      <Heading as="h2" size="lg" mb="2">
        {title}
      </Heading>
      <Stack gap="2">{children}</Stack>
    </Box>
  );
}

/** The user manual: what each screen of this release does and who can use it. */
export function UserManualPage() {
  return (
    <Stack gap="5" maxW="4xl">
      <Heading size="2xl">User Manual</Heading>
      <Text color="fg.muted">
        How the screens of the Tax Portal work. What you see depends on your role; screens you cannot open tell you so.
      </Text>
      <Topic title="Logging in">
        <Text>
          Tick “I agree to the Terms and Conditions”, enter your e-mail and choose Login, then enter your password. If
          multi-factor authentication (MFA) is on, enter the six-digit code from your authenticator app, or ask for a
          code by e-mail. A first login with a temporary password asks you to choose a new one. “Forgot your password?”
          e-mails you a reset link that works once, for one hour. If your organisation signs in through its own identity
          provider, the card offers “Continue with …” once you have entered your e-mail, and you sign in there; other
          organisations with corporate single sign-on use Corporate Login.
        </Text>
      </Topic>
      <Topic title="Lost your phone? Recovery codes">
        <Text>
          When you enable MFA, the portal shows ten recovery codes once: use Copy or Download as .txt and keep them
          somewhere safe, away from your phone. If you cannot use your authenticator app, choose “Use a recovery code”
          at the MFA step and enter one of them in the MFA Token field. Each code works once; after signing in you see
          how many are left, and the portal e-mails you that a code was used. Your profile's MFA panel shows the count;
          “Regenerate recovery codes” (with a current code from your app) replaces them all, and the old ones stop
          working. Disabling MFA removes them. Forgot your password as well? Ask your administrator to disable your MFA:
          a recovery code does not reset a password.
        </Text>
      </Topic>
      <Topic title="Trusted devices">
        <Text>
          At the MFA step, tick “Don't ask again on this device for 30 days” (your operator may set another number of
          days, or turn the option off) and this browser skips the MFA step at your next sign-ins; you still enter your
          password and accept the terms. Your profile's MFA panel lists your trusted devices with the browser, when each
          was added and last used: Revoke one, or Revoke all. Changing your password, changing your MFA (enabling,
          disabling or regenerating recovery codes), being disabled, or an administrator's “Disable User MFA” revokes
          them all. Use it only on a computer that is yours.
        </Text>
      </Topic>
      <Topic title="The header">
        <List.Root ps="5" gap="1">
          <List.Item>
            The logo takes you to the home page; the main menu beside it lists the areas your role may open.
          </List.Item>
          <List.Item>
            The Compact switch makes every screen denser; your choice is remembered on this computer.
          </List.Item>
          <List.Item>The bell shows notifications as they arrive; the count badge shows how many are new.</List.Item>
          <List.Item>The cog lists Users, User Groups and Clients when your role may open them.</List.Item>
          <List.Item>
            The round button with your initials opens the profile menu: Profile, User Manual, Give Feedback,
            Announcements, Contact Us, About and Log Out. Hover over it to see your organisation.
          </List.Item>
          <List.Item>Breadcrumbs under the header show where you are; select one to go back up.</List.Item>
        </List.Root>
      </Topic>
      <Topic title="Home">
        <Text>
          The home page shows your organisation, your roles, whether MFA is on, and links to everything you can do next.
        </Text>
      </Topic>
      <Topic title="Users (administrators and support)">
        <Text>
          The user list shows everyone in your organisation with their roles, access and last login. Filter by name or
          e-mail, by access level and by role. Site admins and administrators create users, change roles, enforce MFA,
          give or remove access and see live sessions, where they can force a log-off. Support staff also create new
          organisations with their site admin and other support accounts.
        </Text>
      </Topic>
      <Topic title="Audit log and exports (site admins, administrators and support)">
        <Text>
          Audit Log (in the users page header and the settings menu) lists who did what in your organisation, newest
          first: sign-ins, failed and refused sign-ins, logouts and forced log-offs, password and MFA changes, new
          users, role, access and SSO changes, billing contacts, the logo and announcements. Each entry names the
          account that acted (or the service key, or 'Anonymous' for a failed sign-in), the account it concerned, the
          address and browser it came from, and what changed, before and after; passwords, codes and secrets never
          appear. Filter by dates, event type, who acted, whom it concerned or any text, open a row for its details, and
          use Export CSV to download every matching entry as a spreadsheet file. The user list has its own Export CSV
          with the list's filters. Entries are kept for a year unless your operator sets otherwise.
        </Text>
      </Topic>
      <Topic title="Your profile">
        <Text>
          Your profile holds your name, job title, department and location, and lets you enable or disable MFA: scan the
          QR code with an authenticator app and enter the code it shows. If your administrator enforces MFA, the portal
          keeps you on your profile until you enable it.
        </Text>
      </Topic>
      <Topic title="My Security">
        <Text>
          Choose My Security in the profile menu. “Where you are signed in” lists every browser signed in to your
          account: the browser, its address, when it signed in and was last used, and how (password, passkey or single
          sign-on); this browser is marked. “Sign out” ends one of them at once, and “Sign out everywhere else” ends all
          but this one. “Your recent sign-ins” lists your last 50 sign-ins and failed attempts, with those from a
          browser your account had not used before marked “New browser”. Your authenticator app, passkeys, recovery
          codes and trusted devices stay on your profile.
        </Text>
        <Text>
          When your account signs in from a browser it has not used before, the portal e-mails you when, from which
          address and with which browser (not at your very first sign-in, and at most one e-mail in 15 minutes). If it
          was not you, open the e-mail's “This wasn't me” link and confirm: every session of your account ends, your
          trusted devices are revoked, and a link to choose a new password is e-mailed to you. The link works once, for
          72 hours.
        </Text>
      </Topic>
      <Topic title="Insights (site admins, administrators and support)">
        <Text>
          The home page shows your organisation's last 30 days in five figures, with “All insights” for the full page
          (also at Insights among the home page's links). Choose 7, 30, 90 or 365 days. The charts show sign-ins per day
          (succeeded and failed), successful sign-ins by method (password, passkey, single sign-on), why sign-ins
          failed, MFA adoption (active members with an authenticator app or a passkey) and how it changed, active users
          against your seat limit, and the most users signed in at once each day against your concurrent-user limit.
          Below each chart, a table holds the same figures, for screen readers and for copying. Days are those of the
          portal's time zone (Australia/Sydney unless your operator chose another), and the figures match the audit
          log's sign-in events.
        </Text>
        <Text>
          Support sees “Organisations at a Glance”: every organisation's seats used, MFA adoption, whether single
          sign-on is on, its last sign-in and a 30-day trend of sign-ins. Select a column's name to sort by it, and an
          organisation's name for its insights.
        </Text>
      </Topic>
      <Topic title="Passkeys">
        <Text>
          A passkey lets your device (fingerprint, face or PIN) or a security key prove it is you. Add one on your
          profile under Passkeys: give it a name, choose “Add a passkey” and follow your browser. Your passkeys are
          listed with when they were added and last used; Remove takes one away. Adding or removing a passkey signs you
          out of your other sessions.
        </Text>
        <Text>
          A passkey counts as your second factor, so it also satisfies MFA your administrator enforces. To sign in with
          it, tick the terms and choose “Sign in with a passkey”: no e-mail or password is needed. After a password,
          “Use a passkey” in the MFA step takes the place of the six-digit code. If you lose the device that holds your
          passkey, sign in with your authenticator app if you have one, or ask your administrator to use “Disable User
          MFA”, which also removes your passkeys.
        </Text>
      </Topic>
      <Topic title="Choosing a password">
        <Text>
          A new password needs 8 to 50 characters. The portal also refuses a password that appears in lists of passwords
          exposed in data breaches, such as “Password1234!”, because attackers try those first; it says so under the new
          password field, and you simply choose another. A few unrelated words make a password that is long, easy to
          remember and on no such list.
        </Text>
      </Topic>
      <Topic title="Confirm it’s you">
        <Text>
          Before a few sensitive actions (exporting the user list or the audit log, switching off someone else’s MFA,
          removing a passkey, giving someone the Administrator or Site Admin role, creating a support account, changing
          the organisation’s single sign-on connections, domains or provisioning tokens), the portal asks you to confirm
          it is you, unless you signed in or confirmed in the last few minutes (five, unless your operator sets
          otherwise). Confirm with your password, a code from your authenticator app, a recovery code or a passkey;
          accounts that sign in through their organisation sign in again there and come back to the page. The action
          then goes ahead by itself. This stops someone who finds your session open on an unattended desk from taking
          your organisation’s data or weakening its accounts.
        </Text>
      </Topic>
      <Topic title="Organisation settings (site admins, administrators and support)">
        <Text>
          Organisation Settings (cog menu, or its card on the home page) gathers the pages that run your organisation,
          one tab each: Members (the user list), Invitations, Single sign-on and domains, Directory provisioning and the
          Audit log. Support staff choose the organisation once, at the top; every tab then works on it, and the address
          keeps the choice, so a link to a tab opens it for the same organisation.
        </Text>
      </Topic>
      <Topic title="Invitations (site admins, administrators and support)">
        <Text>
          Instead of creating an account with a temporary password, you can invite a person: on the Invitations tab
          enter their e-mail, choose their role (a site admin may add the Administrator role) and how many days the link
          is valid (1 to 30, 7 by default). They receive a link that works once; it opens a page naming your
          organisation and who invited them, where they accept the terms, enter their name and choose a password (the
          usual password rules apply, and a password known from data breaches is refused), then set up multi-factor
          authentication and are signed in. Where your organisation signs its people in through its own provider (a
          verified domain with an enabled connection), the page sends them there instead, and their account is created
          with the invited role at that first sign-in. To invite many people, upload a CSV file whose first row is
          email,role (the role as a code such as ANALYST or a name such as Analyst; Administrator means Standard Admin
          with the Administrator role), at most 1,000 rows: a bar shows the progress, and each row says whether it was
          invited, skipped (the address already has an account or an open invitation) or refused (and why). The list
          shows each invitation’s status (pending, accepted, expired, withdrawn); Resend sends a new link and the old
          one stops working, Withdraw stops it. A seat is taken only when an invitation is accepted: the tab shows the
          pending invitations against your free seats, and an acceptance when none is free is refused until one is.
          Inviting someone as Site Admin or Administrator asks you to confirm it is you. Support staff invite the site
          admin of any organisation.
        </Text>
      </Topic>
      <Topic title="Single Sign-On (site admins, administrators and support)">
        <Text>
          An organisation can sign its people in through its own identity provider (Microsoft Entra ID, Okta, ADFS or
          any OpenID Connect or SAML 2.0 provider). The site admin opens Single Sign-On (cog menu, or the button on the
          Users page) and adds a connection: for OpenID Connect the issuer URL, client ID and secret; for SAML the
          provider’s metadata. The page shows the addresses to give the provider’s administrator, and the SAML service
          provider metadata to download. Test connection signs in through the provider and shows what it sent and what a
          real sign-in would do, without signing anyone in: use it before enabling the connection. Then add your e-mail
          domains: each shows a TXT record to publish in your DNS; Verify checks it and says what is missing. Keep the
          record published: it is checked again every day, and a domain whose record is gone for 7 days stops being
          verified (administrators are told at once). Once a domain is verified and a connection enabled, people with an
          e-mail of that domain are sent to your provider from the login card. “Just-in-time accounts” creates an
          account with the chosen role at a person’s first sign-in; without it, only existing accounts sign in.
          Administrators see the page; support staff choose the organisation. Setup steps: docs/sso.md.
        </Text>
      </Topic>
      <Topic title="Directory Provisioning (SCIM)">
        <Text>
          Your organisation's directory (Microsoft Entra ID, Okta or another SCIM 2.0 client) can create, update,
          disable and remove accounts and user groups for you. The site admin opens Directory Provisioning (cog menu, or
          the button on the Users page), copies the SCIM address, names and creates a provisioning token, and pastes
          both into the directory. The token is shown once; the list shows when each token was created and last used,
          and Revoke stops it at once. Administrators see the list. New accounts get the Standard Admin role, which you
          change on the roles page as usual, and set their first password with “Forgot your password?” unless your
          organisation signs in through single sign-on. Accounts the directory manages carry a “Directory” badge in the
          users list: their name, job title, department and “User Enabled” are changed in the directory, not here. The
          Audit Log names the token behind every change it made. Setup steps for Entra ID and Okta: docs/scim.md.
        </Text>
      </Topic>
      <Topic title="Billing and logo">
        <Text>
          Manage Billing holds your organisation's primary and billing contacts, and uploads the logo shown in the
          header (an image of at most 10 MB).
        </Text>
      </Topic>
      <Topic title="Announcements, feedback and contact">
        <Text>
          Announcements from the support team appear as a banner on the portfolios page until you dismiss it, and all of
          them are listed on the Announcements page. Give Feedback sends a title and your comments to the support team;
          Contact Us sends them a message and they reply by e-mail.
        </Text>
      </Topic>
      <Topic title="About">
        <Text>
          The About page shows the version of the Corporate Actions Database and of the COM Engine, with the date their
          information was last updated.
        </Text>
      </Topic>
      <Topic title="Tax Manager areas">
        <Text>
          Portfolios, Activities, External data, User Security, Reports, User Groups, Clients and the calculators belong
          to the Tax Manager application. They are not part of this release; their pages say so, and your access to them
          is already set by your role.
        </Text>
      </Topic>
    </Stack>
  );
}
