import { expect, Page, test } from '@playwright/test';
import { seedOrganisation, seedUser } from './support/seed';
import { waitForMail } from './support/outbox';
import { openMenu, signInThroughPage } from './support/login';
import { SERVICE_API_KEY, SUPPORT_EMAIL, SUPPORT_PASSWORD } from './support/server';

/** SUPPORT_EMAIL is not set for the browser server: contact and feedback go to support@SUPPORT_EMAIL_DOMAIN. */
const SUPPORT_DESK = 'support@support.localhost';

async function openProfileMenu(page: Page) {
  await openMenu(page, 'profile-button', 'profile-menu');
}

/** Opens the profile menu and chooses an entry. */
async function chooseProfileMenu(page: Page, name: string) {
  await openProfileMenu(page);
  await page.getByTestId('profile-menu').getByRole('menuitem', { name }).click();
}

async function signInSiteAdmin(page: Page, fields: { firstName?: string; lastName?: string; roleId?: number } = {}) {
  const org = await seedOrganisation();
  const user = await seedUser(org.id, { roleId: 2, firstName: 'Grace', lastName: 'Hopper', ...fields });
  await signInThroughPage(page, user.email, user.password);
  return { org, user };
}

test('the header, main menu, cog, breadcrumbs and compact mode of a site admin', async ({ page }) => {
  const { org } = await signInSiteAdmin(page);
  const header = page.getByTestId('app-header');
  await expect(header.getByTestId('main-menu').getByRole('link')).toHaveText([
    'Home',
    'Activities',
    'External data',
    'User Security',
    'Reports',
  ]);
  await expect(page.locator('main')).toHaveCSS('padding-top', '70px');
  await expect(page.getByTestId('ca-viewer-notice')).toHaveCount(0);

  // Profile button: initials and the organisation in its tooltip.
  await expect(page.getByTestId('profile-button')).toHaveText('GH');
  await page.getByTestId('profile-button').hover();
  await expect(page.getByTestId('profile-tooltip')).toHaveText(`${org.code} - ${org.name}`);

  // Main menu: an area of the Tax Manager application, with its breadcrumbs.
  await header.getByRole('link', { name: 'Reports' }).click();
  await expect(page).toHaveURL(/\/reports$/);
  await expect(
    page.getByText('This area belongs to the Tax Manager application and is not part of this release.'),
  ).toBeVisible();
  await expect(page.getByTestId('breadcrumbs')).toContainText('Reports');

  // Breadcrumbs skip ids and label segments.
  await page.goto('/portfolios/42/sub-portfolios');
  const crumbs = page.getByTestId('breadcrumbs').getByTestId('crumb');
  await expect(crumbs).toHaveText(['', 'Portfolios', 'Sub portfolios']);
  await page.getByTestId('breadcrumbs').getByRole('link', { name: 'Portfolios', exact: true }).click();
  await expect(page).toHaveURL(/\/portfolios$/);
  await page.goto('/cgtview');
  await expect(page.getByTestId('breadcrumbs')).toContainText('CGT View');
  await page.getByTestId('breadcrumbs').getByRole('link', { name: 'Home', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);

  // Cog: Users, User Groups, Clients, and in 'develop' the server and engine choices, kept in local storage.
  const cog = await openMenu(page, 'cog-button', 'cog-menu');
  await expect(cog.getByRole('menuitem')).toHaveText([
    'Users',
    'User Groups',
    'Clients',
    'Audit Log',
    'Single Sign-On',
    'Directory Provisioning',
    'Integrations',
    'Security Policy',
    'Organisation Settings',
  ]);
  await cog.getByRole('menuitemradio', { name: 'Cloud server' }).click();
  await expect.poll(() => page.evaluate(() => localStorage.getItem('serverChoice'))).toBe('cloud');
  // A radio choice may leave the menu open: close it first, so the next click opens it rather than toggling it shut.
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('cog-menu')).toBeHidden();
  await openMenu(page, 'cog-button', 'cog-menu');
  await page.getByTestId('cog-menu').getByRole('menuitem', { name: 'User Groups' }).click();
  await expect(page).toHaveURL(/\/user-groups$/);

  // Compact mode: a real theme change, kept after a reload.
  const fontSize = () => page.evaluate(() => getComputedStyle(document.documentElement).fontSize);
  expect(await fontSize()).toBe('16px');
  await page.getByTestId('compact-switch').click();
  await expect.poll(fontSize).toBe('14px');
  await page.reload();
  await expect(page.getByTestId('profile-button')).toBeVisible();
  await expect.poll(fontSize).toBe('14px');
  expect(await page.evaluate(() => localStorage.getItem('serverChoice'))).toBe('cloud');
});

test('a CA Viewer sees the notice, a taller header, only Home, no cog, and is refused Tax Manager pages', async ({
  page,
}) => {
  await signInSiteAdmin(page, { roleId: 8 });
  await expect(page.getByTestId('ca-viewer-notice')).toContainText(
    'To enrol as a Tax Manager, please contact support.',
  );
  await expect(page.locator('main')).toHaveCSS('padding-top', '110px');
  await expect(page.getByTestId('main-menu').getByRole('link')).toHaveText(['Home']);
  // The cog shows only the develop-environment choices.
  await page.getByTestId('cog-button').click();
  await expect(page.getByTestId('cog-menu').getByRole('menuitem')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.goto('/reports');
  await expect(page.getByText('You do not have access to this page.')).toBeVisible();
});

test('the profile menu: feedback and contact reach the support mailbox', async ({ page }) => {
  const { user } = await signInSiteAdmin(page);
  await openProfileMenu(page);
  await expect(page.getByTestId('profile-menu').getByRole('menuitem')).toHaveText([
    "You're logged in.",
    'Profile',
    'My Security',
    'User Manual',
    'Give Feedback',
    'Announcements',
    'Contact Us',
    'About',
    'Log Out',
  ]);
  await page.getByTestId('profile-menu').getByRole('menuitem', { name: 'Give Feedback' }).click();
  const feedback = page.getByTestId('feedback-dialog');
  const submit = feedback.getByRole('button', { name: 'Submit' });
  await expect(submit).toBeDisabled();
  await feedback.getByLabel('Title').click();
  await feedback.getByLabel('Content').click();
  await expect(feedback.getByText('Please type in a title.')).toBeVisible();
  await feedback.getByLabel('Title').fill('Browser feedback title');
  await feedback.getByLabel('Content').fill('The shell works in Chromium.');
  await submit.click();
  await expect(page.getByText('Thank you. Your feedback has been received.')).toBeVisible();
  await expect(feedback).toHaveCount(0);
  const feedbackMail = await waitForMail(SUPPORT_DESK, /The shell works in Chromium\./);
  expect(feedbackMail.subject).toContain('Browser feedback title');
  expect(feedbackMail.text).toContain(user.email);

  await chooseProfileMenu(page, 'Contact Us');
  const contact = page.getByTestId('contact-dialog');
  await expect(contact).toHaveCSS('width', '800px');
  await expect(contact.getByLabel('Name')).toHaveValue('Grace Hopper');
  await expect(contact.getByLabel('Email')).toHaveValue(user.email);
  await contact.getByRole('button', { name: 'Send' }).click();
  await expect(contact.getByText('Subject is required')).toBeVisible();
  await expect(contact.getByText('Message is required')).toBeVisible();
  await contact.getByLabel('Subject').fill('Help <iframe src=x>');
  await expect(contact.getByText('Invalid characters detected')).toBeVisible();
  await contact.getByLabel('Subject').fill('Help with reports');
  await contact.getByLabel('Message').fill('Where do I find the CGT report?');
  await contact.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('Your message has been sent successfully. We will get back to you soon.')).toBeVisible();
  const contactMail = await waitForMail(SUPPORT_DESK, /Where do I find the CGT report\?/);
  expect(contactMail.subject).toContain('Help with reports');
  expect(contactMail.text).toContain(`Grace Hopper <${user.email}>`);

  // The server refuses markup too (the same rule), whatever the form does.
  const res = await page.request.post('/api/users/contact-email/', {
    data: { name: 'x', email: 'x@y.co', subject: 's', message: '<script>1</script>' },
  });
  expect(res.status()).toBe(400);
  expect((await res.json()).message).toBe('Invalid characters detected');
});

test('the about page shows the first completed entry of each system, or N/A', async ({ page }) => {
  const record = (data: object) =>
    page.request.post('/api/system-information', { headers: { 'X-Api-Key': SERVICE_API_KEY }, data });
  expect(
    (
      await record({
        eventType: 'data-sync-update',
        status: 'completed',
        version: 'db-7.1',
        message: 'Nightly sync',
        startDateTime: '2026-03-02T01:00:00.000Z',
      })
    ).status(),
  ).toBe(201);
  expect(
    (
      await record({
        eventType: 'data-sync-update',
        status: 'inProgress',
        version: 'db-7.2',
        message: 'Running',
        startDateTime: '2026-03-03T01:00:00.000Z',
      })
    ).status(),
  ).toBe(201);
  await signInSiteAdmin(page);
  await chooseProfileMenu(page, 'About');
  await expect(page).toHaveURL(/\/about$/);
  const db = page.getByTestId('about-data-sync-update');
  await expect(db).toContainText('Corporate Actions Database');
  await expect(db.getByTestId('about-version')).toHaveText('db-7.1');
  await expect(db.getByTestId('about-message')).toHaveText('Nightly sync');
  await expect(db.getByTestId('about-date')).toHaveText('2 Mar 2026');
  const com = page.getByTestId('about-com-engine');
  await expect(com).toContainText('COM Engine');
  await expect(com.getByTestId('about-version')).toHaveText('N/A');
  await expect(com.getByTestId('about-date')).toHaveText('N/A');
});

test('E-Support publishes an announcement; a user sees the banner on /portfolios and dismisses it for good', async ({
  page,
}) => {
  const title = `Maintenance window ${Date.now()}`;
  await signInThroughPage(page, SUPPORT_EMAIL, SUPPORT_PASSWORD);
  await page.goto('/announcements');
  const form = page.getByTestId('publish-announcement');
  await form.getByLabel('Announcement title').fill(title);
  await form.getByLabel('Announcement text').fill('The portal will be unavailable on Sunday from 2am to 4am.');
  await form.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByTestId('announcement-list').getByText(title)).toBeVisible();
  await chooseProfileMenu(page, 'Log Out');
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(page).toHaveURL(/\/logIn/);

  await signInSiteAdmin(page);
  await page.goto('/about');
  await expect(page.getByTestId('announcement-banner')).toHaveCount(0);
  await page.getByTestId('main-menu').getByRole('link', { name: 'Home' }).click();
  await expect(page).toHaveURL(/\/portfolios$/);
  const banner = page.getByTestId('announcement-banner');
  await expect(banner.getByRole('link', { name: title })).toBeVisible();
  await banner.getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(/\/announcements$/);
  await expect(
    page.getByTestId('announcement-list').getByText('The portal will be unavailable on Sunday from 2am to 4am.'),
  ).toBeVisible();

  await page.goto('/portfolios');
  await page.getByRole('button', { name: 'Dismiss announcement' }).click();
  await expect(page.getByTestId('announcement-banner')).toHaveCount(0);
  await page.reload();
  await expect(
    page.getByText('This area belongs to the Tax Manager application and is not part of this release.'),
  ).toBeVisible();
  await expect(page.getByTestId('announcement-banner')).toHaveCount(0);
});

test('the terms and privacy pages are public, with the logged-out profile menu', async ({ page }) => {
  await page.goto('/terms/terms');
  await expect(page.getByRole('heading', { name: /Terms and Conditions/ })).toBeVisible();
  await expect(
    page.getByText(
      /Nothing in the portal, its reports or its support communications is investment, financial, legal or tax advice/,
    ),
  ).toBeVisible();
  await openProfileMenu(page);
  await expect(page.getByTestId('profile-menu').getByRole('menuitem')).toHaveText([
    "You're logged out.",
    'Give Feedback',
    'Log In',
  ]);
  await page.keyboard.press('Escape');
  await page.goto('/terms/privacy');
  await expect(page.getByText(/used internally only/)).toBeVisible();
  await chooseProfileMenu(page, 'Log In');
  await expect(page).toHaveURL(/\/logIn/);
});
