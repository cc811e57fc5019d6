import { LitElement, html, css } from 'lit';
import { JsonRpc } from 'jsonrpc';
import '@vaadin/grid';
import '@vaadin/grid/vaadin-grid-sort-column.js';

/** Every limit of the application: as declared (read at build time) and as configuration applies it. */
export class QwcRateLimitLimits extends LitElement {

    jsonRpc = new JsonRpc(this);

    static styles = css`
        .limits { height: 100%; }
        .declared { color: var(--lumo-secondary-text-color); font-size: var(--lumo-font-size-s); }
    `;

    static properties = {
        _limits: { state: true }
    };

    connectedCallback() {
        super.connectedCallback();
        this.jsonRpc.limits().then(response => this._limits = response.result);
    }

    render() {
        if (!this._limits) {
            return html`<span>Loading the limits...</span>`;
        }
        if (this._limits.length === 0) {
            return html`<span>No method is annotated with @RateLimited.</span>`;
        }
        return html`
            <vaadin-grid .items="${this._limits}" class="limits" theme="no-border row-stripes">
                <vaadin-grid-sort-column auto-width path="method" header="Method"></vaadin-grid-sort-column>
                <vaadin-grid-sort-column auto-width path="name" header="Name"></vaadin-grid-sort-column>
                <vaadin-grid-sort-column auto-width path="policy" header="Policy"></vaadin-grid-sort-column>
                <vaadin-grid-column auto-width header="Limit"
                    .renderer="${(root, column, model) => this._value(root, model.item.limit, model.item.declaredLimit)}">
                </vaadin-grid-column>
                <vaadin-grid-column auto-width header="Window"
                    .renderer="${(root, column, model) => this._value(root, model.item.window, model.item.declaredWindow)}">
                </vaadin-grid-column>
                <vaadin-grid-sort-column auto-width path="algorithm" header="Algorithm"></vaadin-grid-sort-column>
                <vaadin-grid-sort-column auto-width path="scope" header="Scope"></vaadin-grid-sort-column>
                <vaadin-grid-column auto-width path="cost" header="Cost"></vaadin-grid-column>
                <vaadin-grid-column auto-width path="burst" header="Burst"></vaadin-grid-column>
                <vaadin-grid-sort-column auto-width path="failureMode" header="Failure mode"></vaadin-grid-sort-column>
                <vaadin-grid-column auto-width path="maxWait" header="Waits up to"></vaadin-grid-column>
                <vaadin-grid-sort-column auto-width path="direction" header="Calls"></vaadin-grid-sort-column>
                <vaadin-grid-column auto-width path="learned" header="Learned limit"></vaadin-grid-column>
            </vaadin-grid>`;
    }

    /** The value in force; the annotation's own value beside it when configuration changed it. */
    _value(root, applied, declared) {
        const changed = declared !== undefined && declared !== '' && declared !== 0 && `${declared}` !== `${applied}`;
        root.innerHTML = changed
            ? `${applied} <span class="declared">(annotation: ${declared})</span>`
            : `${applied}`;
    }
}
customElements.define('qwc-rate-limit-limits', QwcRateLimitLimits);
