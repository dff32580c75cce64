"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.SessionEvents = void 0;
const common_1 = require("@nestjs/common");
const node_events_1 = require("node:events");
/** In-process signal that sessions ended, so live connections (the notifications socket) close at once. */
let SessionEvents = class SessionEvents extends node_events_1.EventEmitter {
    emitEnded(event) {
        this.emit('ended', event);
    }
    onEnded(listener) {
        this.on('ended', listener);
        return () => this.off('ended', listener);
    }
};
exports.SessionEvents = SessionEvents;
exports.SessionEvents = SessionEvents = __decorate([
    (0, common_1.Injectable)()
], SessionEvents);
//# sourceMappingURL=session-events.js.map