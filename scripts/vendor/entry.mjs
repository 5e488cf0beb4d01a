// What the Activity page takes from Discord's Embedded App SDK, bundled into one file
// (bot/web/static/vendor/discord-sdk.js) as the global DiscordEmbeddedAppSdk.
export { DiscordSDK, DiscordSDKMock, Events, patchUrlMappings } from "@discord/embedded-app-sdk";
export { version } from "@discord/embedded-app-sdk/package.json";
