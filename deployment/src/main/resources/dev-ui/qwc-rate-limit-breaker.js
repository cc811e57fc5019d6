import { LitElement, html, css } from 'lit';
import { JsonRpc } from 'jsonrpc';
import '@vaadin/button';

/** Redis and the circuit breaker as this instance sees them, with the counters since start-up. */
export class QwcRateLimitBreaker extends LitElement {

    jsonRpc = new JsonRpc(this);

    static styles = css`
        table { margin: var(--lumo-space-m); border-collapse: collapse; }
        td { padding: var(--lumo-space-xs) var(--lumo-space-m); }
        td:first-child { color: var(--lumo-secondary-text-color); }
        .open { color: var(--lumo-error-text-color); font-weight: bold; }
        .closed { color: var(--lumo-success-text-color); font-weight: bold; }
        vaadin-button { margin: var(--lumo-space-m); }
    `;

    static labels = {
        'circuit': 'Circuit breaker',
        'circuit-by-node': 'Circuit breaker of each master',
        'redis-tried-again-in': 'Redis tried again in',
        'decided-by': 'Decided by',
        'function-library': 'Function library (Redis 7)',
        'scripts-used': 'Scripts the limits use',
        'scripts-preloaded': 'Scripts loaded into Redis at start-up',
        'script-reloads': 'Scripts sent again after NOSCRIPT',
        'decisions-sent-to-redis': 'Decisions sent to Redis',
        'decisions-without-redis': 'Decisions by failure mode (without Redis)',
        'refusals-from-cache': 'Refusals repeated from the refusal cache',
        'invalidations': 'Invalidations from other instances',
        'live-instances': 'Live instances (announced in Redis)',
        'local-fallback-instances': 'Instances a local limit is shared by without Redis',
        'leased-units': 'Units held in leased slices now',
        'decisions-from-leases': 'Decisions admitted from leased slices (no Redis call)',
        'leases-taken': 'Leases taken',
        'run-time-switches': 'Run-time switches (mode, rollout, failure mode)'
    };

    static properties = {
        _state: { state: true }
    };

    connectedCallback() {
        super.connectedCallback();
        this._refresh();
    }

    render() {
        if (!this._state) {
            return html`<span>Loading...</span>`;
        }
        return html`
            <table>
                ${Object.entries(this._state).map(([key, value]) => html`
                    <tr>
                        <td>${QwcRateLimitBreaker.labels[key] || key}</td>
                        <td class="${key === 'circuit' ? (value === 'closed' ? 'closed' : 'open') : ''}">${value}</td>
                    </tr>`)}
            </table>
            <vaadin-button @click="${this._refresh}">Refresh</vaadin-button>`;
    }

    _refresh() {
        this.jsonRpc.breaker().then(response => this._state = response.result);
    }
}
customElements.define('qwc-rate-limit-breaker', QwcRateLimitBreaker);
