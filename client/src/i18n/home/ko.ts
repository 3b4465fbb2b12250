import shared from '@eln/shared/i18n/ko';
import type { HomeMessages } from './en';

/** 홈 화면 집계 아래 영역(나를 기다리는 일, 내 노트, 최근 연 항목, 내 과제 소식)의 한국어 문자열. */
const ko: HomeMessages = {
  meaning: shared.signature.meaning,
  noteStatus: shared.note.status,
  failed: '이 영역을 불러오지 못했습니다.',
  more: '더 보기',
  waiting: {
    title: '나를 기다리는 일',
    signatures: '서명',
    templates: '템플릿',
    empty: '기다리는 일이 없습니다.',
    emptyHint: '서명 요청, 승인할 템플릿, 반려된 노트가 여기에 표시됩니다.',
    request: '{{name}}님이 {{meaning}} 서명을 요청했습니다',
    declined: '{{name}}님이 서명을 거절해 반려되었습니다',
    approve: '{{name}}님이 승인을 요청했습니다 (개정 {{revision}})',
    returned: '{{name}}님이 반려했습니다',
    returnedToYou: '반려되었습니다',
    sign: '서명',
    review: '검토',
    revise: '수정',
  },
  notes: {
    title: '내 노트',
    empty: '모든 노트가 저장되었고 남은 서명이 없습니다.',
    emptyHint: '저장하지 않았거나 서명을 기다리는 내 노트가 여기에 표시됩니다.',
    neverSaved: '저장한 적 없음',
    changedSinceSave: 'v{{version}} 이후 저장하지 않은 변경',
    pending_one: '서명 대기 {{count}}건',
    pending_other: '서명 대기 {{count}}건',
  },
  recent: {
    title: '최근 연 항목',
    empty: '아직 연 항목이 없습니다.',
    emptyHint: '연 노트, 템플릿, 스키마가 여기에 표시됩니다.',
    kinds: { note: '노트', template: '템플릿', schema: '스키마' },
  },
  activity: {
    title: '내 과제 소식',
    empty: '아직 내 과제에 소식이 없습니다.',
    emptyHint: '새 노트, 저장된 버전, 서명, 종료된 과제, 승인된 템플릿이 여기에 표시됩니다.',
    system: '시스템',
    events: {
      noteCreated: '{{actor}}님이 {{note}}을(를) 만들었습니다',
      versionSaved: '{{actor}}님이 {{note}}의 버전 {{version}}을(를) 저장했습니다',
      signatureGiven: '{{actor}}님이 {{note}}에 {{meaning}}(으)로 서명했습니다',
      signatureRemoved: '{{actor}}님이 {{note}}에서 {{signer}}님의 서명을 삭제했습니다',
      projectClosed: '{{actor}}님이 과제 {{project}}을(를) 종료했습니다',
      templateApproved: '{{actor}}님이 템플릿 {{template}}을(를) 버전 {{version}}(으)로 승인했습니다',
    },
    reason: '사유: {{reason}}',
  },
  time: {
    justNow: '방금',
  },
};

export default ko;
