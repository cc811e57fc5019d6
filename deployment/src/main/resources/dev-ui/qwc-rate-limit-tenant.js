import { LitElement, html, css } from 'lit';
import { JsonRpc } from 'jsonrpc';
import '@vaadin/text-field';
import '@vaadin/button';
import '@vaadin/grid';
import { columnBodyRenderer } from '@vaadin/grid/lit.js';

/** A tenant's state in every per-tenant limit (read without consuming), and a reset per limit. */
export class QwcRateLimitTenant extends LitElement {

    jsonRpc = new JsonRpc(this);

    static styles = css`
        .form { display: flex; gap: var(--lumo-space-m); align-items: baseline; padding: var(--lumo-space-m); }
        .error { color: var(--lumo-error-text-color); padding: var(--lumo-space-m); }
    `;

    static properties = {
        _tenant: { state: true },
        _status: { state: true },
        _error: { state: true }
    };

    constructor() {
        super();
        this._tenant = '';
    }

    render() {
        return html`
            <div class="form">
                <vaadin-text-field label="Tenant" placeholder="a tenant id" .value="${this._tenant}"
                    @value-changed="${e => this._tenant = e.detail.value}"
                    @keydown="${e => e.key === 'Enter' && this._lookUp()}"></vaadin-text-field>
                <vaadin-button theme="primary" @click="${this._lookUp}" ?disabled="${!this._tenant}">Look up</vaadin-button>
            </div>
            ${this._error ? html`<div class="error">${this._error}</div>` : ''}
            ${this._status ? this._grid() : ''}`;
    }

    _grid() {
        if (this._status.length === 0) {
            return html`<span>No limit of this application is per tenant.</span>`;
        }
        return html`
            <vaadin-grid .items="${this._status}" theme="no-border row-stripes" all-rows-visible>
                <vaadin-grid-column auto-width path="policy" header="Policy or name"></vaadin-grid-column>
                <vaadin-grid-column auto-width path="name" header="Limit"></vaadin-grid-column>
                <vaadin-grid-column auto-width path="limit" header="Of"></vaadin-grid-column>
                <vaadin-grid-column auto-width path="window" header="Window"></vaadin-grid-column>
                <vaadin-grid-column auto-width path="remaining" header="Remaining"></vaadin-grid-column>
                <vaadin-grid-column auto-width path="resetInSeconds" header="Full again in (s)"></vaadin-grid-column>
                <vaadin-grid-column auto-width path="debt" header="Debt"></vaadin-grid-column>
                <vaadin-grid-column auto-width header=""
                    ${columnBodyRenderer(row => html`
                        <vaadin-button theme="small error" @click="${() => this._reset(row.policy)}">Reset</vaadin-button>`, [])}>
                </vaadin-grid-column>
            </vaadin-grid>`;
    }

    _lookUp() {
        this._error = null;
        this.jsonRpc.tenantStatus({ tenant: this._tenant })
            .then(response => this._status = response.result)
            .catch(error => this._error = error.error ? error.error.message : `${error}`);
    }

    _reset(policy) {
        this._error = null;
        this.jsonRpc.reset({ tenant: this._tenant, policy: policy })
            .then(response => this._status = response.result)
            .catch(error => this._error = error.error ? error.error.message : `${error}`);
    }
}
customElements.define('qwc-rate-limit-tenant', QwcRateLimitTenant);
