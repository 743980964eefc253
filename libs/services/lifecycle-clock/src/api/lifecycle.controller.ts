import { Body, Controller, HttpCode, Param, Post, Put } from '@nestjs/common';
import {
  acknowledgementCommand,
  authorityApproveCommand,
  authorityRejectCommand,
  authoritySubmitCommand,
  clarificationReceiveCommand,
  clarificationRequestCommand,
  closureCommand,
  correctionCommand,
  duplicateResolutionCommand,
  type Principal,
  refusalCommand,
  requestorCommand,
  verificationTransitionCommand,
} from '@dsar/contracts';
import { CurrentPrincipal, optionalBody, parseInput } from '@dsar/platform/http';
import { Idempotent } from '@dsar/platform/idempotency';
import { RequestLifecycle } from '../application/request-lifecycle';

/**
 * lifecycle-clock's internal API for the request workflow. The gateway
 * exposes the public commands under /api/v1/requests/:id/...; the
 * `lifecycle/*` commands are for the services that own those steps
 * (verification, fulfilment-delivery) and are not public.
 */
@Controller('internal/v1/requests/:id')
export class LifecycleController {
  constructor(private readonly lifecycle: RequestLifecycle) {}

  @Post('acknowledgements')
  @HttpCode(202)
  @Idempotent()
  acknowledge(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.lifecycle.acknowledge(principal, id, parseInput(acknowledgementCommand, optionalBody(body)));
  }

  @Post('clarifications/request')
  @HttpCode(202)
  @Idempotent()
  requestClarification(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.lifecycle.requestClarification(principal, id, parseInput(clarificationRequestCommand, body));
  }

  @Post('clarifications/receive')
  @HttpCode(202)
  @Idempotent()
  receiveClarification(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.lifecycle.receiveClarification(principal, id, parseInput(clarificationReceiveCommand, optionalBody(body)));
  }

  @Post('refusals')
  @HttpCode(202)
  @Idempotent()
  refuse(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.lifecycle.refuse(principal, id, parseInput(refusalCommand, optionalBody(body)));
  }

  @Post('closures')
  @HttpCode(202)
  @Idempotent()
  close(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.lifecycle.close(principal, id, parseInput(closureCommand, optionalBody(body)));
  }

  @Put('requestor')
  @HttpCode(202)
  @Idempotent()
  replaceRequestor(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.lifecycle.replaceRequestor(principal, id, parseInput(requestorCommand, body));
  }

  @Post('corrections')
  @HttpCode(202)
  @Idempotent()
  correct(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.lifecycle.correct(principal, id, parseInput(correctionCommand, body));
  }

  @Post('duplicate-resolution')
  @HttpCode(202)
  @Idempotent()
  resolveDuplicate(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.lifecycle.resolveDuplicate(principal, id, parseInput(duplicateResolutionCommand, body));
  }

  @Post('authority/submit')
  @HttpCode(202)
  @Idempotent()
  submitAuthority(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.lifecycle.submitAuthority(principal, id, parseInput(authoritySubmitCommand, body));
  }

  @Post('authority/approve')
  @HttpCode(202)
  @Idempotent()
  approveAuthority(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.lifecycle.approveAuthority(principal, id, parseInput(authorityApproveCommand, optionalBody(body)).note);
  }

  @Post('authority/reject')
  @HttpCode(202)
  @Idempotent()
  rejectAuthority(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.lifecycle.rejectAuthority(principal, id, parseInput(authorityRejectCommand, optionalBody(body)));
  }

  /** verification started a case: the request waits for it. */
  @Post('lifecycle/verification-requested')
  @HttpCode(202)
  @Idempotent()
  verificationRequested(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.lifecycle.requestVerification(principal, id, parseInput(verificationTransitionCommand, optionalBody(body)));
  }

  @Post('lifecycle/verification-approved')
  @HttpCode(202)
  @Idempotent()
  verificationApproved(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.lifecycle.approveVerification(principal, id, parseInput(verificationTransitionCommand, optionalBody(body)));
  }

  @Post('lifecycle/verification-rejected')
  @HttpCode(202)
  @Idempotent()
  verificationRejected(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.lifecycle.rejectVerification(principal, id);
  }

  /** fulfilment-delivery checked the manifest: the request is fulfilled. */
  @Post('lifecycle/fulfilled')
  @HttpCode(202)
  @Idempotent()
  fulfilled(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.lifecycle.fulfil(principal, id);
  }
}
