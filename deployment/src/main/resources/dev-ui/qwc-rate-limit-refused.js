import { LitElement, html, css } from 'lit';
import { JsonRpc } from 'jsonrpc';
import '@vaadin/button';
import '@vaadin/grid';
import '@vaadin/select';

/** The tenants and caller addresses refused most over the last minutes, fleet-wide (RateLimitAdmin.refusedMost). */
export class QwcRateLimitRefused extends LitElement {

    jsonRpc = new JsonRpc(this);

    static styles = css`
        .form { display: flex; gap: var(--lumo-space-m); align-items: baseline; padding: var(--lumo-space-m); }
        .error { color: var(--lumo-error-text-color); padding: var(--lumo-space-m); }
    `;

    static properties = {
        _minutes: { state: true },
        _callers: { state: true },
        _error: { state: true }
    };

    constructor() {
        super();
        this._minutes = '5';
        this._periods = [
            { label: 'Last minute', value: '1' },
            { label: 'Last 5 minutes', value: '5' },
            { label: 'Last hour', value: '60' }
        ];
    }

    connectedCallback() {
        super.connectedCallback();
        this._load();
    }

    render() {
        return html`
            <div class="form">
                <vaadin-select label="Period" .items="${this._periods}" .value="${this._minutes}"
                    @value-changed="${e => { this._minutes = e.detail.value; this._load(); }}"></vaadin-select>
                <vaadin-button @click="${this._load}">Refresh</vaadin-button>
            </div>
            ${this._error ? html`<div class="error">${this._error}</div>` : ''}
            ${this._callers ? this._grid() : ''}`;
    }

    _grid() {
        if (this._callers.length === 0) {
            return html`<span>Nobody was refused in this period.</span>`;
        }
        return html`
            <vaadin-grid .items="${this._callers}" theme="no-border row-stripes" all-rows-visible>
                <vaadin-grid-column auto-width path="caller" header="Caller"></vaadin-grid-column>
                <vaadin-grid-column auto-width path="kind" header="Kind"></vaadin-grid-column>
                <vaadin-grid-column auto-width path="refusals" header="Refused calls"></vaadin-grid-column>
            </vaadin-grid>`;
    }

    _load() {
        this._error = null;
        this.jsonRpc.refusedMost({ minutes: parseInt(this._minutes, 10) })
            .then(response => this._callers = response.result)
            .catch(error => this._error = error.error ? error.error.message : `${error}`);
    }
}
customElements.define('qwc-rate-limit-refused', QwcRateLimitRefused);
