/* Generated from GET /console/api/openapi.json by openapi-typescript (npm run console:types): do not edit. */

export interface paths {
    "/console": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The console (HTML); signs in with OpenID Connect */
        get: operations["getConsolePage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/console-app.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The console's script (bundled by esbuild) */
        get: operations["getConsoleScript"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/console-app.css": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The console's style sheet */
        get: operations["getConsoleStyle"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/config.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What the page needs to sign in: the OpenID Provider's issuer, the console's public client id, the sign-out URL */
        get: operations["getConsoleConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/api/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The console API's OpenAPI 3.0 document (public) */
        get: operations["getConsoleOpenApi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/api/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The signed-in person: their verified e-mail and their memberships (one Query)
         * @description Any signed-in person.
         */
        get: operations["getConsoleMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/api/workspaces/{workspaceId}/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The workspace's API keys, newest first
         * @description Least role: viewer.
         */
        get: operations["listConsoleApiKeys"];
        put?: never;
        /**
         * Create a key; the key itself is in this answer only
         * @description At most 500 active keys per workspace (409 beyond). Defaults: 60 requests a minute, 1,000 an hour, no expiry. Least role: admin.
         */
        post: operations["createConsoleApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/api/workspaces/{workspaceId}/api-keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One key
         * @description Least role: viewer.
         */
        get: operations["getConsoleApiKey"];
        put?: never;
        post?: never;
        /**
         * Revoke a key (the record stays, status revoked); refused by the gateway within the authorizer cache time (5 minutes)
         * @description Least role: admin.
         */
        delete: operations["revokeConsoleApiKey"];
        options?: never;
        head?: never;
        /**
         * Change a key's name, scopes, limits or expiry (fields not sent keep their value; expiresAt null: never)
         * @description Reaches the gateway within the authorizer cache time (5 minutes). A revoked key cannot be changed (409). A change that makes an expired key (or one whose roll grace ended) active again takes a slot under the active-key bound (MAX_ACTIVE_KEYS, 500): at the bound it is 409. Least role: admin.
         */
        patch: operations["updateConsoleApiKey"];
        trace?: never;
    };
    "/console/api/workspaces/{workspaceId}/api-keys/{keyId}/roll": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Roll a key: a new key with the same name, scopes, limits and expiry; the old one keeps working expireOldInSeconds more (never past its own expiry)
         * @description The new key `replaces` the old one and the old one is `replacedBy` the new one. Rolling a key again during its grace gives a successor the expiry the key had before its first roll. Of concurrent rolls of one key exactly one succeeds; the others are 409. Only an active key can be rolled (409). Least role: admin.
         */
        post: operations["rollConsoleApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/api/workspaces/{workspaceId}/api-keys/{keyId}/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A key's requests per clock hour over the last `hours` hours (default 168), oldest first; rateLimited: the requests refused for a limit
         * @description Least role: viewer.
         */
        get: operations["getConsoleApiKeyUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/api/workspaces/{workspaceId}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The workspace's members
         * @description Least role: owner.
         */
        get: operations["listConsoleMembers"];
        put?: never;
        /**
         * Add a member by e-mail with a role (409 when already a member); the person can then sign in
         * @description In AWS the stack's Cognito user pool invites the person by e-mail (AdminCreateUser); `invitation` is null. Locally, a person without a sign-in account gets `invitation`: a one-time link to the local provider's set-password page, valid 7 days, shown in this answer only (the table keeps its hash; a replay for an Idempotency-Key answers null). Least role: owner.
         */
        post: operations["addConsoleMember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/api/workspaces/{workspaceId}/members/{email}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a member (the last owner cannot be removed: 409)
         * @description Least role: owner.
         */
        delete: operations["removeConsoleMember"];
        options?: never;
        head?: never;
        /**
         * Change a member's role (the last owner cannot be demoted: 409)
         * @description Least role: owner.
         */
        patch: operations["updateConsoleMember"];
        trace?: never;
    };
    "/console/api/workspaces/{workspaceId}/audit-log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every change to keys, members, invoices and webhooks, newest first (paged; kept 400 days; never a secret); filter by action, actor and target
         * @description Least role: admin.
         */
        get: operations["listConsoleAuditLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/api/workspaces/{workspaceId}/clients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The workspace's clients, by name (what "New invoice" picks from; the list the invoices name)
         * @description Least role: viewer.
         */
        get: operations["listConsoleClients"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/api/workspaces/{workspaceId}/invoices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The workspace's invoices, newest issue date first (paged; the filters of GET /v1/invoices)
         * @description Least role: viewer.
         */
        get: operations["listConsoleInvoices"];
        put?: never;
        /**
         * A draft from the client's billable, stopped, not yet invoiced time entries starting in the period (days inclusive)
         * @description lines: project (default), task or entry; number: none (null) unless a custom one is given: sending the draft assigns the next INV-000001 of the workspace; taxRate, notes and dueDate (issueDate + payment terms, 30 days when not set) default to the billing profile (its defaultTaxRate, invoiceFooter, paymentTermsDays). 409: nothing to invoice, time without a rate or in several currencies (naming the projects), a number taken, over 5,000 entries. 201 with the draft when it is made within one step; otherwise 202 with its progress: call POST .../invoices/{invoiceId}/continue until it answers the draft. Least role: admin.
         */
        post: operations["createConsoleInvoice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/api/workspaces/{workspaceId}/invoices/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * What "New invoice" would make now (lines, totals, number, the entries of each line); writes nothing
         * @description The same body and the same 409s as the create. Least role: admin.
         */
        post: operations["previewConsoleInvoice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/api/workspaces/{workspaceId}/invoices/{invoiceId}/continue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The next step of an invoice being made, voided or deleted: 200 with the invoice once made or voided (or made before), { deleted, id } once deleted, else 202 with its progress
         * @description An invoice being made that no step continues for 2 minutes (INVOICE_STEP_LEASE_MS) is rolled back by the sweep (every INVOICE_SWEEP_INTERVAL_MS locally, every minute in AWS): 409 while its entries are being released, then 404; make it again. A void or delete that no step continues is finished by the sweep. Least role: admin.
         */
        post: operations["continueConsoleInvoice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/api/workspaces/{workspaceId}/invoices/unbilled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The time left to bill: per client with billable, stopped, not yet invoiced time, its entries, minutes, amount before tax and first and last date
         * @description amount: what an invoice of those entries would total before tax (lines by project: rate x exact minutes / 60, rounded once per line), null with `problem` when the create would refuse it (time without a rate, several currencies). Entries on any invoice, running timers and non-billable time are not counted. The read is bounded (8 MB of entries, newest first): past it `complete` is false and only entries starting at or after `countedFrom` are counted; narrow with startDate/endDate. Least role: viewer.
         */
        get: operations["listConsoleUnbilled"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/api/workspaces/{workspaceId}/invoices/{invoiceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One invoice
         * @description Least role: viewer.
         */
        get: operations["getConsoleInvoice"];
        put?: never;
        post?: never;
        /**
         * Delete a draft or void invoice; a draft's time entries are released in steps first (409 naming the status otherwise)
         * @description 200 when it is gone within this request's budget; else 202 with the progress (status releasing) while the invoice says releasing: true: call POST .../continue, or leave it to the sweep. Least role: admin.
         */
        delete: operations["deleteConsoleInvoice"];
        options?: never;
        head?: never;
        /**
         * Change a draft's number, dates, tax rate (tax and total follow), notes or line descriptions (409 unless draft)
         * @description Least role: admin.
         */
        patch: operations["updateConsoleInvoice"];
        trace?: never;
    };
    "/console/api/workspaces/{workspaceId}/invoices/{invoiceId}/entries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The time entries on an invoice, oldest first (paged: limit, cursor, hasMore, nextCursor; every page under 6 MB)
         * @description A page holds `limit` entries (default 50, at most 200), fewer when they would pass 5 MiB (long notes): hasMore and nextCursor then lead on, so paging reaches every entry once. A cursor is bound to this workspace and invoice. Least role: viewer.
         */
        get: operations["listConsoleInvoiceEntries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/api/workspaces/{workspaceId}/invoices/{invoiceId}/pdf": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The invoice as a PDF (workspace and client, lines, totals)
         * @description Least role: viewer.
         */
        get: operations["getConsoleInvoicePdf"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/api/workspaces/{workspaceId}/invoices/{invoiceId}/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * draft -> sent (finalize): the draft without a custom number gets the next number of the workspace's sequence (409 naming the status otherwise)
         * @description Numbers are issued at finalization, like Stripe's: consecutive with no gap among issued invoices (a deleted draft uses none), and never issued twice, even after void and delete. Nothing is e-mailed. Least role: admin.
         */
        post: operations["sendConsoleInvoice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/api/workspaces/{workspaceId}/invoices/{invoiceId}/pay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Record a payment: partially_paid until the payments reach the total, then paid (409 naming the status unless sent or partially_paid)
         * @description amount: in the invoice currency, more than 0, at most the amount due (400 naming amount); paidAt: a day not in the future. Several payments may be recorded; each is an invoice.paid entry of the audit log. Concurrent payments are applied one after the other (a write guarded by the revision read) and never pay more than the total. Least role: admin.
         */
        post: operations["payConsoleInvoice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/api/workspaces/{workspaceId}/invoices/{invoiceId}/void": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * draft or sent -> void; its time entries are released in steps (409 naming the status otherwise)
         * @description 200 with the void invoice when its entries are free within this request's budget (INVOICE_STEP_BUDGET_MS); else 202 with the progress (status releasing) while the invoice says releasing: true: call POST .../continue, or leave it to the sweep. Least role: admin.
         */
        post: operations["voidConsoleInvoice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/api/workspaces/{workspaceId}/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The workspace's webhooks, with the key that made each and its last delivery
         * @description Least role: viewer.
         */
        get: operations["listConsoleWebhooks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/api/workspaces/{workspaceId}/webhooks/{webhookId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One webhook
         * @description Least role: viewer.
         */
        get: operations["getConsoleWebhook"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook (nothing more is sent to it)
         * @description Least role: admin.
         */
        delete: operations["deleteConsoleWebhook"];
        options?: never;
        head?: never;
        /**
         * Disable or enable a webhook
         * @description Enabling resumes with the events from then on and forgets the failures that disabled it. A webhook whose key is revoked or expired cannot be enabled here (409): an integration re-enables it with a key that may read what it sends (PUT /v1/webhooks/{id}). Least role: admin.
         */
        patch: operations["updateConsoleWebhook"];
        trace?: never;
    };
    "/console/api/workspaces/{workspaceId}/webhooks/{webhookId}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A webhook's recent delivery attempts, newest first (paged; kept 31 days)
         * @description Least role: viewer.
         */
        get: operations["listConsoleWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/api/workspaces/{workspaceId}/billing-profile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The workspace's billing profile: the invoices' sender and a new invoice's defaults (every field null before it is set)
         * @description Least role: viewer.
         */
        get: operations["getConsoleBillingProfile"];
        /**
         * Replace the workspace's billing profile (owners)
         * @description The whole profile: a field absent or null is not set. It is the PDF's "From" of drafts and of invoices sent from now on (a sent invoice keeps the profile it was sent with), and a new invoice's defaults: currency (when neither the project nor the client sets one), tax rate, due date (issue date + paymentTermsDays; 30 when not set) and notes (the footer). Texts refuse control characters (line breaks only in address and invoiceFooter) and zero-width or bidi characters: 400 naming the field. Idempotency-Key: the same key and body within 24 hours answers the first answer again. Audit log: billing-profile.updated, each changed field from -> to (a PUT that changes nothing writes nothing). Least role: owner.
         */
        put: operations["putConsoleBillingProfile"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        ErrorResponse: {
            error: {
                /**
                 * @example VALIDATION_ERROR
                 * @enum {string}
                 */
                code: "UNAUTHORIZED" | "FORBIDDEN" | "VALIDATION_ERROR" | "NOT_FOUND" | "CONFLICT" | "PRECONDITION_FAILED" | "CURSOR_EXPIRED" | "IDEMPOTENCY_KEY_REUSED" | "PAYLOAD_TOO_LARGE" | "URI_TOO_LONG" | "THROTTLED" | "NOT_IMPLEMENTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                /** @example Invalid query parameter: startDate must be a date (YYYY-MM-DD), e.g. 2026-01-31 */
                message: string;
                /** @description The fields a 400 refused ({ field, message }); for a 403, one entry with a machine-readable reason: RATE_LIMITED (retry after retryAfter seconds) or MISSING_SCOPE (do not retry) */
                details?: (components["schemas"]["FieldErrorDetail"] | components["schemas"]["RateLimitedDetail"] | components["schemas"]["MissingScopeDetail"])[];
                /**
                 * @description The request id of the logs (also the X-Request-Id or x-amzn-RequestId header)
                 * @example c0a8f1e2-5b7d-4c3a-9e6f-1a2b3c4d5e6f
                 */
                requestId?: string;
            };
        };
        FieldErrorDetail: {
            /**
             * @description The parameter, header or body field, by dotted path (e.g. `sortKey`, `body.tagIds.3`)
             * @example startDate
             */
            field: string;
            /**
             * @description What is wrong with it, in plain words (e.g. `is required`)
             * @example must be a date (YYYY-MM-DD), e.g. 2026-01-31
             */
            message: string;
        };
        /** @description 403 FORBIDDEN because a rate limit was reached: retry after retryAfter seconds */
        RateLimitedDetail: {
            /** @enum {string} */
            reason: "RATE_LIMITED";
            /**
             * @description The window whose limit was reached
             * @enum {string}
             */
            window: "minute" | "hour";
            /**
             * @description The key's limit for that window
             * @example 60
             */
            limit: number;
            /**
             * @description Seconds until that window resets (also the Retry-After header): retrying then can succeed
             * @example 37
             */
            retryAfter: number;
        };
        /** @description 403 FORBIDDEN because the key lacks the scope of the route: retrying will not help */
        MissingScopeDetail: {
            /** @enum {string} */
            reason: "MISSING_SCOPE";
            /**
             * @description The scope the route requires and the key lacks (e.g. `clients:read`)
             * @example clients:write
             */
            scope: string;
        };
        Error: components["schemas"]["ErrorResponse"];
        ConsoleApiKey: {
            id: string;
            name: string;
            /** @description `svc_live_` and the next 4 characters (null for keys made before prefixes were kept) */
            prefix: string | null;
            scopes: ("clients:read" | "clients:write" | "projects:read" | "projects:write" | "tasks:read" | "tasks:write" | "tags:read" | "tags:write" | "time-entries:read" | "time-entries:write" | "favorites:read" | "favorites:write" | "invoices:read" | "invoices:write" | "webhooks:read" | "webhooks:write")[];
            perMinute: number;
            perHour: number;
            /** Format: date-time */
            expiresAt: string | null;
            /** Format: date-time */
            createdAt: string;
            /** @description The e-mail of the person who made it, `admin-cli`, or null */
            createdBy: string | null;
            /**
             * Format: date-time
             * @description Recorded by the authorizer: as fresh as its cache (5 minutes)
             */
            lastUsedAt: string | null;
            /** Format: date-time */
            revokedAt: string | null;
            /** @enum {string} */
            status: "active" | "expired" | "revoked";
            /** @description The id of the key this one succeeded by a roll, or null */
            replaces: string | null;
            /** @description The id of this key's successor by its latest roll, or null */
            replacedBy: string | null;
        };
        ConsoleMember: {
            email: string;
            /** @enum {string} */
            role: "owner" | "admin" | "viewer";
            /** Format: date-time */
            addedAt: string;
            addedBy: string;
        };
        ConsoleAuditEntry: {
            id: string;
            /** Format: date-time */
            at: string;
            actor: string;
            action: string;
            target: {
                /** @enum {string} */
                type: "api-key" | "member" | "invoice" | "webhook" | "workspace";
                id: string;
            };
            changes: {
                [key: string]: {
                    from?: unknown;
                    to?: unknown;
                };
            };
            /** @description The target's name when the page was read: a key's name and prefix, a member's e-mail, an invoice's number and client, a webhook's URL (null: since deleted) */
            targetName: string | null;
            /** @description Each change as "field: before -> after" (none: no value) */
            summary: string[];
        };
        Invoice: {
            /** @example 01JQ8A2B4C6D8E0F2G4H6J8K0M */
            id: string;
            /**
             * @description null on a draft, unless a custom number was set on it; sending (finalizing) assigns the next number of the workspace's sequence (INV-000001, INV-000002, ...: consecutive, no gap among issued invoices; a deleted draft uses none). Unique in the workspace among every number ever issued (any case): an issued number is never reused, even after void and delete
             * @example INV-000042
             */
            number: string | null;
            /** @example 01JQ3K8M2X7D4C1V9B6N5T0RWA */
            clientId: string;
            /**
             * @description draft (no number yet) -> sent (finalized: numbered) -> partially_paid (payments below the total) -> paid (payments reach the total); draft or sent -> void
             * @example paid
             * @enum {string}
             */
            status: "draft" | "sent" | "partially_paid" | "paid" | "void";
            /**
             * Format: date
             * @example 2026-03-31
             */
            issueDate: string;
            /**
             * Format: date
             * @example 2026-04-30
             */
            dueDate: string;
            /** @example USD */
            currency: string;
            lineItems: {
                /** @example Website relaunch: Homepage design */
                description: string;
                /** @example 16 */
                quantity: number;
                /** @example 120 */
                unitPrice: number;
                /** @example 1920 */
                amount: number;
                /**
                 * @description The exact minutes the line bills (lines made from time): amount = unitPrice x minutes / 60, rounded once, half up, to cents; quantity shows their hours rounded to 2 decimals
                 * @example 960
                 */
                minutes?: number;
            }[];
            /** @example 1920 */
            subtotal: number;
            /** @example 364.8 */
            tax: number;
            /** @example 2284.8 */
            total: number;
            /** @example Thank you for your business. Payment within 30 days. */
            notes?: string;
            /** @example 19 */
            taxRate?: number;
            /**
             * Format: date-time
             * @example 2026-03-31T16:00:00.000Z
             */
            sentAt?: string;
            /**
             * Format: date-time
             * @description When the payments reached the total (the day of the last payment, 00:00 UTC)
             * @example 2026-04-15T00:00:00.000Z
             */
            paidAt?: string;
            /** @description The payments recorded, oldest first (absent before the first) */
            payments?: components["schemas"]["InvoicePayment"][];
            /** @description The sender as sent: the billing profile (display name, address, tax id, e-mail) when the invoice was sent; absent on drafts and when the workspace had no billing profile then (the document names the workspace) */
            from?: {
                /** @example Acme Corp */
                name: string;
                /**
                 * @example 1 Market Street
                 *     San Francisco, CA 94105
                 */
                address?: string;
                /** @example billing@acme.example */
                email?: string;
                /** @example DE123456789 */
                taxId?: string;
            };
            /** @description The client as sent: its name, address and e-mail when the invoice was sent; absent on drafts */
            billTo?: {
                /** @example Acme Corp */
                name: string;
                /**
                 * @example 1 Market Street
                 *     San Francisco, CA 94105
                 */
                address?: string;
                /** @example billing@acme.example */
                email?: string;
                /** @example DE123456789 */
                taxId?: string;
            };
            /**
             * @description true while the time entries of this void or deleted invoice are being released; absent otherwise
             * @example true
             */
            releasing?: boolean;
            /**
             * @description The total minus the payments recorded (0 once paid)
             * @example 0
             */
            amountDue: number;
            /**
             * Format: date-time
             * @example 2026-03-02T10:30:05.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-03-03T08:12:41.000Z
             */
            updatedAt: string;
            /**
             * @description The record's ETag (read-only; the same as the ETag header of its GET): send it in If-Match to update or delete the record only if it is unchanged
             * @example "3"
             */
            etag: string;
        };
        InvoicePayment: {
            /**
             * @description The payment id (ULID)
             * @example 01JQ3ZP8B5V0W1X2Y3Z4A5B6C7
             */
            id: string;
            /**
             * Format: date
             * @description The day the money was received (ISO date, not in the future)
             * @example 2026-04-15
             */
            paidAt: string;
            /**
             * @description In the invoice currency, > 0
             * @example 2284.8
             */
            amount: number;
            /**
             * @description A bank reference, a cheque number, ...
             * @example SEPA 2026-04-15 #4411
             */
            reference?: string;
            /**
             * Format: date-time
             * @description When it was recorded
             * @example 2026-04-15T10:12:00.000Z
             */
            recordedAt: string;
        };
        ConsoleInvoicePreview: {
            clientId: string;
            /** @description The custom number given, else null: sending the draft assigns the next of the sequence */
            number: string | null;
            issueDate: string;
            dueDate: string;
            currency: string;
            lineItems: {
                /** @example Website relaunch: Homepage design */
                description: string;
                /** @example 16 */
                quantity: number;
                /** @example 120 */
                unitPrice: number;
                /** @example 1920 */
                amount: number;
                /**
                 * @description The exact minutes the line bills (lines made from time): amount = unitPrice x minutes / 60, rounded once, half up, to cents; quantity shows their hours rounded to 2 decimals
                 * @example 960
                 */
                minutes?: number;
            }[];
            subtotal: number;
            tax: number;
            total: number;
            taxRate: number;
            notes?: string;
            entryCount: number;
            /** @description The time entries of each line, in the lines' order */
            lineEntries: string[][];
        };
        ConsoleInvoiceInProgress: {
            /** @description The id the invoice will have (pending) or has (releasing) */
            id: string;
            /**
             * @description pending: being made; releasing: a void or delete releasing the invoice's time entries
             * @enum {string}
             */
            status: "pending" | "releasing";
            /**
             * @description What a release is for
             * @enum {string}
             */
            action?: "void" | "delete";
            clientId: string;
            /** @description The entries found when it was started (pending), or on the invoice (releasing) */
            entryCount: number;
            /** @description The entries that carry its id so far (pending: going up; releasing: going down to 0) */
            locked: number;
        };
        ConsoleUnbilledTime: {
            items: {
                clientId: string;
                clientName: string;
                /** @description Billable, stopped entries on no invoice */
                entries: number;
                minutes: number;
                /** @description What an invoice of them would total before tax (lines by project); null when it cannot be made */
                amount: number | null;
                currency: string | null;
                /** @description The oldest entry's start date (UTC) */
                oldestDate: string;
                /** @description The newest entry's start date (UTC) */
                newestDate: string;
                /** @description Why an invoice of that period would be refused (no rate, several currencies, over 5,000 entries) */
                problem?: string;
            }[];
            /** @description False when the read stopped at its bound (8 MB of entries, newest first) */
            complete: boolean;
            /** @description When not complete: only entries starting at or after this instant are counted */
            countedFrom?: string;
        };
        TimeEntry: {
            /** @example 01JQ7ZP5R8S2T4V6W8X0Y2Z4AB */
            id: string;
            /** @example alice */
            userId: string;
            /** @example Homepage hero section */
            name?: string;
            /** @example 01JQ3K9A4F6H8J2K5M7N9P1QRS */
            projectId?: string;
            /** @example 01JQ3K8M2X7D4C1V9B6N5T0RWA */
            clientId?: string;
            /** @example 01JQ3KB2C4D6E8F0G2H4J6K8MN */
            taskId?: string;
            /**
             * Format: date-time
             * @example 2026-03-02T09:00:00.000Z
             */
            startTime: string;
            /**
             * Format: date-time
             * @example 2026-03-02T10:30:00.000Z
             */
            endTime?: string;
            /** @example Three variants of the hero section, reviewed with the client */
            notes?: string;
            /** @example true */
            billable?: boolean;
            /**
             * @example [
             *       "01JQ3KC7T9V1W3X5Y7Z9A1B3CD"
             *     ]
             */
            tagIds?: string[];
            /**
             * @description Composite sort key; pass it as the sortKey query parameter to get, update or delete this entry
             * @example 2026-03-02T09:00:00.000Z#01JQ7ZP5R8S2T4V6W8X0Y2Z4AB
             */
            sortKey: string;
            /**
             * @description Computed by the server from startTime and endTime; absent while the timer runs
             * @example 90
             */
            durationMinutes?: number;
            /**
             * @description Read-only: the invoice (draft, sent or paid) this entry is billed on. While it is set, PUT, DELETE and stop of the entry are 409 naming the invoice number; voiding or deleting the invoice releases it
             * @example 01JQ8A2B4C6D8E0F2G4H6J8K0M
             */
            invoiceId?: string;
            /**
             * Format: date-time
             * @example 2026-03-02T10:30:05.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-03-03T08:12:41.000Z
             */
            updatedAt: string;
            /**
             * @description The record's ETag (read-only; the same as the ETag header of its GET): send it in If-Match to update or delete the record only if it is unchanged
             * @example "3"
             */
            etag: string;
        };
        Deleted: {
            /** @enum {boolean} */
            deleted: true;
            /** @example 01JQ3K8M2X7D4C1V9B6N5T0RWA */
            id: string;
        };
        ConsoleWebhook: {
            id: string;
            url: string;
            events: string[];
            description: string | null;
            enabled: boolean;
            /** @description Why the server disabled it (its key revoked or expired, or failed deliveries); null while enabled */
            disabledReason: string | null;
            /** Format: date-time */
            createdAt: string;
            /** @description The API key that made (or last re-enabled) it; null for webhooks made before it was recorded, or a key since gone */
            key: {
                id: string;
                name: string;
                prefix: string | null;
                /** @enum {string} */
                status: "active" | "expired" | "revoked";
            } | null;
            /** @description Its latest delivery attempt (null: none yet) */
            lastDelivery: {
                /** Format: date-time */
                at: string;
                type: string;
                statusCode: number | null;
                error: string | null;
            } | null;
        };
        WebhookAttempt: {
            /** @example evt_01JQ7ZQ1A3B5C7D9E1F3G5H7J9 */
            eventId: string;
            /**
             * @description The event type (a change type, or webhook.ping)
             * @example time-entry.created
             */
            type: string;
            /**
             * @description 1 for the first attempt of the event
             * @example 2
             */
            attempt: number;
            /**
             * Format: date-time
             * @description When the attempt started
             * @example 2026-03-02T10:30:11.000Z
             */
            at: string;
            /**
             * @description The receiver's HTTP status (absent when no answer came)
             * @example 503
             */
            statusCode?: number;
            /**
             * @description Why no answer came: timeout, refused address, connection error
             * @example timeout after 10000 ms
             */
            error?: string;
            /** @example 182 */
            durationMs: number;
            /**
             * Format: date-time
             * @description When the event is tried again (absent: delivered, or retries exhausted)
             * @example 2026-03-02T10:35:11.000Z
             */
            nextRetryAt?: string;
        };
        ConsoleBillingProfile: {
            /** @description The sender the invoices show ("From"); null before an owner set the profile (the documents then show the workspace id) */
            displayName: string | null;
            address: string | null;
            taxId: string | null;
            email: string | null;
            defaultCurrency: string | null;
            defaultTaxRate: number | null;
            paymentTermsDays: number | null;
            invoiceFooter: string | null;
            /**
             * Format: date-time
             * @description When it was last set (null: never)
             */
            updatedAt: string | null;
            /** @description Who last set it (null: never) */
            updatedBy: string | null;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getConsolePage: {
        parameters: {
            query?: {
                code?: string;
                state?: string;
                iss?: string;
                error?: string;
                error_description?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getConsoleScript: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/javascript": string;
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getConsoleStyle: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/css": string;
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getConsoleConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        issuer: string;
                        clientId: string;
                        scope: string;
                        logoutUrl: string | null;
                        authorizerCacheSeconds: number;
                        scopes: string[];
                    };
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getConsoleOpenApi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getConsoleMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        email: string;
                        memberships: {
                            workspaceId: string;
                            /** @enum {string} */
                            role: "owner" | "admin" | "viewer";
                        }[];
                    };
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listConsoleApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["ConsoleApiKey"][];
                    };
                };
            };
            /** @description Bad input: details name each field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of this workspace, or no such record in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createConsoleApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh key per form submission (1-255 printable ASCII characters, e.g. a UUID): for 24 hours a repeat by the same person with the same key, path and body gets the first answer again (with Idempotent-Replayed: true) and changes nothing; the same key with another path or body is 422 IDEMPOTENCY_KEY_REUSED; a repeat while the first still runs is 409 with Retry-After. A replayed answer never carries a new API key again (key: null). */
                "Idempotency-Key"?: string;
            };
            path: {
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    scopes: ("clients:read" | "clients:write" | "projects:read" | "projects:write" | "tasks:read" | "tasks:write" | "tags:read" | "tags:write" | "time-entries:read" | "time-entries:write" | "favorites:read" | "favorites:write" | "invoices:read" | "invoices:write" | "webhooks:read" | "webhooks:write")[];
                    perMinute?: number;
                    perHour?: number;
                    /** Format: date-time */
                    expiresAt?: string;
                };
            };
        };
        responses: {
            /** @description OK (carries a secret: Cache-Control: no-store) */
            201: {
                headers: {
                    /** @description `true` on an answer replayed for a repeated Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The API key itself: shown once, never again (null on an answer replayed for an Idempotency-Key) */
                        key: string | null;
                        apiKey: components["schemas"]["ConsoleApiKey"];
                    };
                };
            };
            /** @description Bad input: details name each field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of this workspace, or no such record in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The last owner, the 500-active-key bound, an existing member, a revoked key, an invoice's status or what it cannot be made from */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This Idempotency-Key was used with another path or body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getConsoleApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workspaceId: string;
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsoleApiKey"];
                };
            };
            /** @description Bad input: details name each field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of this workspace, or no such record in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeConsoleApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workspaceId: string;
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsoleApiKey"];
                };
            };
            /** @description Bad input: details name each field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of this workspace, or no such record in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateConsoleApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workspaceId: string;
                keyId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    scopes?: ("clients:read" | "clients:write" | "projects:read" | "projects:write" | "tasks:read" | "tasks:write" | "tags:read" | "tags:write" | "time-entries:read" | "time-entries:write" | "favorites:read" | "favorites:write" | "invoices:read" | "invoices:write" | "webhooks:read" | "webhooks:write")[];
                    perMinute?: number;
                    perHour?: number;
                    /**
                     * Format: date-time
                     * @description null: never expires
                     */
                    expiresAt?: string | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsoleApiKey"];
                };
            };
            /** @description Bad input: details name each field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of this workspace, or no such record in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The last owner, the 500-active-key bound, an existing member, a revoked key, an invoice's status or what it cannot be made from */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rollConsoleApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh key per form submission (1-255 printable ASCII characters, e.g. a UUID): for 24 hours a repeat by the same person with the same key, path and body gets the first answer again (with Idempotent-Replayed: true) and changes nothing; the same key with another path or body is 422 IDEMPOTENCY_KEY_REUSED; a repeat while the first still runs is 409 with Retry-After. A replayed answer never carries a new API key again (key: null). */
                "Idempotency-Key"?: string;
            };
            path: {
                workspaceId: string;
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * @description How long the old key keeps working (never past its own expiry)
                     * @default 86400
                     */
                    expireOldInSeconds?: number;
                };
            };
        };
        responses: {
            /** @description OK (carries a secret: Cache-Control: no-store) */
            201: {
                headers: {
                    /** @description `true` on an answer replayed for a repeated Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The new API key: shown once (null on an answer replayed for an Idempotency-Key) */
                        key: string | null;
                        apiKey: components["schemas"]["ConsoleApiKey"];
                        previous: components["schemas"]["ConsoleApiKey"];
                    };
                };
            };
            /** @description Bad input: details name each field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of this workspace, or no such record in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The last owner, the 500-active-key bound, an existing member, a revoked key, an invoice's status or what it cannot be made from */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This Idempotency-Key was used with another path or body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getConsoleApiKeyUsage: {
        parameters: {
            query?: {
                hours?: number;
            };
            header?: never;
            path: {
                workspaceId: string;
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: date-time */
                            hour: string;
                            requests: number;
                            rateLimited: number;
                        }[];
                    };
                };
            };
            /** @description Bad input: details name each field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of this workspace, or no such record in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listConsoleMembers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["ConsoleMember"][];
                    };
                };
            };
            /** @description Bad input: details name each field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of this workspace, or no such record in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    addConsoleMember: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh key per form submission (1-255 printable ASCII characters, e.g. a UUID): for 24 hours a repeat by the same person with the same key, path and body gets the first answer again (with Idempotent-Replayed: true) and changes nothing; the same key with another path or body is 422 IDEMPOTENCY_KEY_REUSED; a repeat while the first still runs is 409 with Retry-After. A replayed answer never carries a new API key again (key: null). */
                "Idempotency-Key"?: string;
            };
            path: {
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    /** @enum {string} */
                    role: "owner" | "admin" | "viewer";
                };
            };
        };
        responses: {
            /** @description OK (carries a secret: Cache-Control: no-store) */
            201: {
                headers: {
                    /** @description `true` on an answer replayed for a repeated Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        email: string;
                        /** @enum {string} */
                        role: "owner" | "admin" | "viewer";
                        /** Format: date-time */
                        addedAt: string;
                        addedBy: string;
                        /** @description Locally, for a person without a sign-in account: a one-time link to the local provider's set-password page (valid 7 days), shown once. Null in AWS (Cognito e-mails the invitation), for a person who has an account, and on a replayed answer. */
                        invitation: {
                            url: string;
                            /** Format: date-time */
                            expiresAt: string;
                        } | null;
                    };
                };
            };
            /** @description Bad input: details name each field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of this workspace, or no such record in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The last owner, the 500-active-key bound, an existing member, a revoked key, an invoice's status or what it cannot be made from */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This Idempotency-Key was used with another path or body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    removeConsoleMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workspaceId: string;
                email: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsoleMember"];
                };
            };
            /** @description Bad input: details name each field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of this workspace, or no such record in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The last owner, the 500-active-key bound, an existing member, a revoked key, an invoice's status or what it cannot be made from */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateConsoleMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workspaceId: string;
                email: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    role: "owner" | "admin" | "viewer";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsoleMember"];
                };
            };
            /** @description Bad input: details name each field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of this workspace, or no such record in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The last owner, the 500-active-key bound, an existing member, a revoked key, an invoice's status or what it cannot be made from */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listConsoleAuditLog: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                action?: string;
                actor?: string;
                targetId?: string;
            };
            header?: never;
            path: {
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["ConsoleAuditEntry"][];
                        nextCursor: string | null;
                        hasMore: boolean;
                    };
                };
            };
            /** @description Bad input: details name each field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of this workspace, or no such record in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listConsoleClients: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            id: string;
                            name: string;
                            currency?: string;
                        }[];
                    };
                };
            };
            /** @description Bad input: details name each field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of this workspace, or no such record in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listConsoleInvoices: {
        parameters: {
            query?: {
                status?: "draft" | "sent" | "partially_paid" | "paid" | "void";
                clientId?: string;
                startDate?: string;
                endDate?: string;
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path: {
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Invoice"][];
                        /**
                         * @description Opaque cursor for the next page; present when hasMore is true
                         * @example eyJ2IjoxLCJrIjoiMjAyNi0wMy0wMlQwOTowMDowMC4wMDBaIzAxSlE3WlA1UjhTMlQ0VjZXOFgwWTJaNEFCIn0.k7Qm2vXr9Zc
                         */
                        nextCursor?: string;
                        /** @example true */
                        hasMore: boolean;
                    };
                };
            };
            /** @description Bad input: details name each field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of this workspace, or no such record in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createConsoleInvoice: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh key per form submission (1-255 printable ASCII characters, e.g. a UUID): for 24 hours a repeat by the same person with the same key, path and body gets the first answer again (with Idempotent-Replayed: true) and changes nothing; the same key with another path or body is 422 IDEMPOTENCY_KEY_REUSED; a repeat while the first still runs is 409 with Retry-After. A replayed answer never carries a new API key again (key: null). */
                "Idempotency-Key"?: string;
            };
            path: {
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    clientId: string;
                    /** Format: date */
                    startDate: string;
                    /** Format: date */
                    endDate: string;
                    /** Format: date */
                    dueDate?: string;
                    /** Format: date */
                    issueDate?: string;
                    /** @description A custom number for the draft (unique among every number ever issued); without it the draft has none (null) until it is sent, which assigns the next of the workspace's sequence */
                    number?: string;
                    /** @description A percentage of the subtotal (19 for 19 %), at most 4 decimals */
                    taxRate?: number;
                    /**
                     * @description One line per project (default), per project and task, or per entry
                     * @enum {string}
                     */
                    lines?: "project" | "task" | "entry";
                    notes?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    /** @description `true` on an answer replayed for a repeated Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description Accepted: the work goes on in later requests (the body says how far it is) */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsoleInvoiceInProgress"];
                };
            };
            /** @description Bad input: details name each field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of this workspace, or no such record in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The last owner, the 500-active-key bound, an existing member, a revoked key, an invoice's status or what it cannot be made from */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This Idempotency-Key was used with another path or body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    previewConsoleInvoice: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh key per form submission (1-255 printable ASCII characters, e.g. a UUID): for 24 hours a repeat by the same person with the same key, path and body gets the first answer again (with Idempotent-Replayed: true) and changes nothing; the same key with another path or body is 422 IDEMPOTENCY_KEY_REUSED; a repeat while the first still runs is 409 with Retry-After. A replayed answer never carries a new API key again (key: null). */
                "Idempotency-Key"?: string;
            };
            path: {
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    clientId: string;
                    /** Format: date */
                    startDate: string;
                    /** Format: date */
                    endDate: string;
                    /** Format: date */
                    dueDate?: string;
                    /** Format: date */
                    issueDate?: string;
                    /** @description A custom number for the draft (unique among every number ever issued); without it the draft has none (null) until it is sent, which assigns the next of the workspace's sequence */
                    number?: string;
                    /** @description A percentage of the subtotal (19 for 19 %), at most 4 decimals */
                    taxRate?: number;
                    /**
                     * @description One line per project (default), per project and task, or per entry
                     * @enum {string}
                     */
                    lines?: "project" | "task" | "entry";
                    notes?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description `true` on an answer replayed for a repeated Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsoleInvoicePreview"];
                };
            };
            /** @description Bad input: details name each field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of this workspace, or no such record in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The last owner, the 500-active-key bound, an existing member, a revoked key, an invoice's status or what it cannot be made from */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This Idempotency-Key was used with another path or body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    continueConsoleInvoice: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh key per form submission (1-255 printable ASCII characters, e.g. a UUID): for 24 hours a repeat by the same person with the same key, path and body gets the first answer again (with Idempotent-Replayed: true) and changes nothing; the same key with another path or body is 422 IDEMPOTENCY_KEY_REUSED; a repeat while the first still runs is 409 with Retry-After. A replayed answer never carries a new API key again (key: null). */
                "Idempotency-Key"?: string;
            };
            path: {
                workspaceId: string;
                invoiceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description `true` on an answer replayed for a repeated Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description Accepted: the work goes on in later requests (the body says how far it is) */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsoleInvoiceInProgress"];
                };
            };
            /** @description Bad input: details name each field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of this workspace, or no such record in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The last owner, the 500-active-key bound, an existing member, a revoked key, an invoice's status or what it cannot be made from */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This Idempotency-Key was used with another path or body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listConsoleUnbilled: {
        parameters: {
            query?: {
                startDate?: string;
                endDate?: string;
            };
            header?: never;
            path: {
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsoleUnbilledTime"];
                };
            };
            /** @description Bad input: details name each field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of this workspace, or no such record in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getConsoleInvoice: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workspaceId: string;
                invoiceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description Bad input: details name each field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of this workspace, or no such record in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteConsoleInvoice: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workspaceId: string;
                invoiceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description Accepted: the work goes on in later requests (the body says how far it is) */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsoleInvoiceInProgress"];
                };
            };
            /** @description Bad input: details name each field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of this workspace, or no such record in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The last owner, the 500-active-key bound, an existing member, a revoked key, an invoice's status or what it cannot be made from */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateConsoleInvoice: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workspaceId: string;
                invoiceId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A custom number (unique among every number ever issued); null: none, sending assigns the next of the sequence */
                    number?: string | null;
                    /** Format: date */
                    issueDate?: string;
                    /** Format: date */
                    dueDate?: string;
                    /** @description A percentage of the subtotal (19 for 19 %), at most 4 decimals */
                    taxRate?: number;
                    notes?: string | null;
                    /** @description New descriptions of the lines, in the invoice's line order (as many as it has lines) */
                    lineDescriptions?: string[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description Bad input: details name each field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of this workspace, or no such record in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The last owner, the 500-active-key bound, an existing member, a revoked key, an invoice's status or what it cannot be made from */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listConsoleInvoiceEntries: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path: {
                workspaceId: string;
                invoiceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["TimeEntry"][];
                        /**
                         * @description Opaque cursor for the next page; present when hasMore is true
                         * @example eyJ2IjoxLCJrIjoiMjAyNi0wMy0wMlQwOTowMDowMC4wMDBaIzAxSlE3WlA1UjhTMlQ0VjZXOFgwWTJaNEFCIn0.k7Qm2vXr9Zc
                         */
                        nextCursor?: string;
                        /** @example true */
                        hasMore: boolean;
                    };
                };
            };
            /** @description Bad input: details name each field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of this workspace, or no such record in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getConsoleInvoicePdf: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workspaceId: string;
                invoiceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": string;
                };
            };
            /** @description Bad input: details name each field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of this workspace, or no such record in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sendConsoleInvoice: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh key per form submission (1-255 printable ASCII characters, e.g. a UUID): for 24 hours a repeat by the same person with the same key, path and body gets the first answer again (with Idempotent-Replayed: true) and changes nothing; the same key with another path or body is 422 IDEMPOTENCY_KEY_REUSED; a repeat while the first still runs is 409 with Retry-After. A replayed answer never carries a new API key again (key: null). */
                "Idempotency-Key"?: string;
            };
            path: {
                workspaceId: string;
                invoiceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description `true` on an answer replayed for a repeated Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description Bad input: details name each field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of this workspace, or no such record in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The last owner, the 500-active-key bound, an existing member, a revoked key, an invoice's status or what it cannot be made from */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This Idempotency-Key was used with another path or body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    payConsoleInvoice: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh key per form submission (1-255 printable ASCII characters, e.g. a UUID): for 24 hours a repeat by the same person with the same key, path and body gets the first answer again (with Idempotent-Replayed: true) and changes nothing; the same key with another path or body is 422 IDEMPOTENCY_KEY_REUSED; a repeat while the first still runs is 409 with Retry-After. A replayed answer never carries a new API key again (key: null). */
                "Idempotency-Key"?: string;
            };
            path: {
                workspaceId: string;
                invoiceId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: date
                     * @description The day the money was received (YYYY-MM-DD, not in the future)
                     */
                    paidAt: string;
                    /** @description In the invoice currency: more than 0, at most the amount still due (amountDue) */
                    amount: number;
                    /** @description A bank reference, a cheque number, ... */
                    reference?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description `true` on an answer replayed for a repeated Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description Bad input: details name each field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of this workspace, or no such record in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The last owner, the 500-active-key bound, an existing member, a revoked key, an invoice's status or what it cannot be made from */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This Idempotency-Key was used with another path or body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    voidConsoleInvoice: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh key per form submission (1-255 printable ASCII characters, e.g. a UUID): for 24 hours a repeat by the same person with the same key, path and body gets the first answer again (with Idempotent-Replayed: true) and changes nothing; the same key with another path or body is 422 IDEMPOTENCY_KEY_REUSED; a repeat while the first still runs is 409 with Retry-After. A replayed answer never carries a new API key again (key: null). */
                "Idempotency-Key"?: string;
            };
            path: {
                workspaceId: string;
                invoiceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description `true` on an answer replayed for a repeated Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description Accepted: the work goes on in later requests (the body says how far it is) */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsoleInvoiceInProgress"];
                };
            };
            /** @description Bad input: details name each field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of this workspace, or no such record in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The last owner, the 500-active-key bound, an existing member, a revoked key, an invoice's status or what it cannot be made from */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This Idempotency-Key was used with another path or body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listConsoleWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["ConsoleWebhook"][];
                    };
                };
            };
            /** @description Bad input: details name each field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of this workspace, or no such record in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getConsoleWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workspaceId: string;
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsoleWebhook"];
                };
            };
            /** @description Bad input: details name each field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of this workspace, or no such record in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteConsoleWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workspaceId: string;
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsoleWebhook"];
                };
            };
            /** @description Bad input: details name each field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of this workspace, or no such record in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateConsoleWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workspaceId: string;
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description false disables it; true enables it again (events from then on) */
                    enabled: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsoleWebhook"];
                };
            };
            /** @description Bad input: details name each field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of this workspace, or no such record in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The last owner, the 500-active-key bound, an existing member, a revoked key, an invoice's status or what it cannot be made from */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listConsoleWebhookDeliveries: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path: {
                workspaceId: string;
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["WebhookAttempt"][];
                        nextCursor: string | null;
                        hasMore: boolean;
                    };
                };
            };
            /** @description Bad input: details name each field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of this workspace, or no such record in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getConsoleBillingProfile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsoleBillingProfile"];
                };
            };
            /** @description Bad input: details name each field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of this workspace, or no such record in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putConsoleBillingProfile: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh key per form submission (1-255 printable ASCII characters, e.g. a UUID): for 24 hours a repeat by the same person with the same key, path and body gets the first answer again (with Idempotent-Replayed: true) and changes nothing; the same key with another path or body is 422 IDEMPOTENCY_KEY_REUSED; a repeat while the first still runs is 409 with Retry-After. A replayed answer never carries a new API key again (key: null). */
                "Idempotency-Key"?: string;
            };
            path: {
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description The name invoices show as their sender ("From")
                     * @example Studio North GmbH
                     */
                    displayName: string;
                    /** @description Postal address, up to 6 lines (null or absent: not set) */
                    address?: string | null;
                    /** @description Tax or VAT id, shown under the address (null or absent: not set) */
                    taxId?: string | null;
                    /**
                     * Format: email
                     * @description Billing e-mail, shown under the address (null or absent: not set)
                     */
                    email?: string | null;
                    /** @description A new invoice's currency when neither the project nor the client sets one (null or absent: not set) */
                    defaultCurrency?: string | null;
                    /** @description A new invoice's tax rate when the create gives none (null or absent: not set) */
                    defaultTaxRate?: number | null;
                    /** @description Days from a new invoice's issue date to its due date when the create gives no due date (default 30) (null or absent: not set) */
                    paymentTermsDays?: number | null;
                    /** @description A new invoice's notes when the create gives none (payment instructions, thanks) (null or absent: not set) */
                    invoiceFooter?: string | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description `true` on an answer replayed for a repeated Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsoleBillingProfile"];
                };
            };
            /** @description Bad input: details name each field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid sign-in token (an API key is refused here) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }] */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of this workspace, or no such record in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The last owner, the 500-active-key bound, an existing member, a revoked key, an invoice's status or what it cannot be made from */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This Idempotency-Key was used with another path or body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (request id only) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Retry after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
