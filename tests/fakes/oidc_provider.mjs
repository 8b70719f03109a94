// A real OpenID Connect provider on a loopback port for the SSO tests: the `oidc-provider`
// package (installed with the UI's devDependencies), its built-in sign-in and consent pages,
// one confidential client and the accounts the test hands over. Prints "ready <issuer>" once
// listening. Settings arrive as environment variables (see tests/fakes/oidc_provider.py).
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const require = createRequire(process.env.OIDC_FRONTEND_PACKAGE);
const { default: Provider } = await import(pathToFileURL(require.resolve("oidc-provider")).href);

const port = Number(process.env.OIDC_PORT);
const issuer = `http://127.0.0.1:${port}`;
// {"login name": {"email": ..., "groups": [...]}}: any password signs a listed name in.
const accounts = JSON.parse(process.env.OIDC_ACCOUNTS || "{}");

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: process.env.OIDC_CLIENT_ID,
      client_secret: process.env.OIDC_CLIENT_SECRET,
      redirect_uris: [process.env.OIDC_REDIRECT_URI],
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_post",
    },
  ],
  claims: {
    openid: ["sub"],
    email: ["email", "email_verified"],
    profile: ["name", "groups"],
  },
  cookies: { keys: ["loopback-test-cookie-key"] },
  pkce: { required: () => true },
  async findAccount(ctx, id) {
    const account = accounts[id];
    if (!account) return undefined;
    return { accountId: id, claims: async () => ({ sub: id, email_verified: true, ...account }) };
  },
});

const server = provider.listen(port, "127.0.0.1", () => {
  process.stdout.write(`ready ${issuer}\n`);
});
const stop = () => server.close(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
